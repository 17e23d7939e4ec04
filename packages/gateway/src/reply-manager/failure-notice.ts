import type { AgentEvent } from "@chorus/core";

/**
 * A plain sentence for the chat when a model call is being retried, e.g.
 * "The model provider is rate-limiting; retrying in 20 s". Contract: undefined for events that need no notice.
 */
export function retryNotice(event: AgentEvent): string | undefined {
  if (event.type !== "retry") return undefined;
  const seconds = Math.max(1, Math.ceil(event.delayMs / 1000));
  switch (event.error.kind) {
    case "rate_limit":
      return `The model provider is rate-limiting; retrying in ${seconds} s`;
    case "overloaded":
      return `The model provider is overloaded; retrying in ${seconds} s`;
    default:
      return `The model provider did not answer properly; retrying in ${seconds} s`;
  }
}

/** Why a run stopped, as the gateway knows it. */
export type RunStopCause = "timeout" | "user" | "interrupt" | "admin" | "shutdown" | undefined;

/**
 * The sentence a chat gets when its run ended badly. Contract: undefined when the user needs no notice
 * (completed runs, /stop, an interrupting message).
 */
export function endNotice(reason: string, error: string | undefined, cause: RunStopCause): string | undefined {
  if (cause === "timeout") return "That took too long and was stopped.";
  if (cause === "admin") return "An administrator stopped this task.";
  if (cause === "shutdown") return "The bot is restarting; this task was stopped. Send your message again afterwards.";
  if (reason === "aborted") return undefined;
  if (reason === "error") return `Sorry, that failed: ${firstLine(error ?? "unknown error")}`;
  if (reason === "max_turns") return "I stopped because this task took too many steps.";
  if (reason === "length") return "I stopped because the answer kept getting cut off.";
  return undefined;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
