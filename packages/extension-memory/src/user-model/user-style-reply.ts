import type { ExtensionCommand } from "@chorus/gateway";
import type { UserStyleCommands } from "./user-style-model.js";

/**
 * `/memory style [clear]`: what the bot noticed about how the asker writes, or forgetting it. Only ever about the
 * asker; shown in a DM only (in a group it would tell the others), cleared anywhere.
 */
export async function userStyleReply(
  style: UserStyleCommands | undefined,
  { args, sessionKey, message }: Parameters<ExtensionCommand["run"]>[0],
): Promise<string> {
  if (style === undefined) return "The per-user model is off (`memory.userModel`).";
  const scope = style.scopeOf(sessionKey, message.sender.id);
  if (scope === undefined) return "This conversation has no per-user model.";
  const action = args[1]?.toLowerCase();
  if (action === "clear") {
    const gone = await style.clear(scope);
    return gone === 0
      ? "I had noted nothing about how you write."
      : `Forgot ${gone} note${gone === 1 ? "" : "s"} about how you write.`;
  }
  if (action !== undefined) return "Usage: `/memory style [clear]`";
  if (message.chatType === "group") return "What I noticed about how you write is shown only in a DM with me.";
  const { line, observed } = await style.describe(scope);
  if (observed === 0) return "I have noted nothing about how you write yet.";
  const said = line ?? "Nothing clear yet — I tell the model only once a habit shows.";
  return `${said} _(from your last ${observed} message${observed === 1 ? "" : "s"}; \`/memory style clear\` forgets it)_`;
}
