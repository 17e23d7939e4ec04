import { isSessionStoreError } from "@chorus/store";

/**
 * What the chat is told when a builtin command throws: what failed and whether to retry, in words a user
 * understands. The error's detail is for the log, never the chat.
 * Contract: pure; one sentence or two, naming the command.
 */
export function commandFailureText(name: string, error: unknown): string {
  const reason = isSessionStoreError(error)
    ? "the bot could not reach its storage"
    : "something went wrong inside the bot (the details are in its log)";
  return `That failed: /${name} did not finish because ${reason}. Please try again in a moment; if it keeps failing, tell the bot's admin.`;
}
