import type { AgentEvent, AgentMessage, ProviderErrorKind } from "@chorus/core";

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

/** What a failed model call means for the user: what failed and whether trying again helps. */
const PROVIDER_FAILURES: Record<ProviderErrorKind, string> = {
  rate_limit:
    "Sorry, the AI model is getting too many requests right now, so I could not answer. Please try again in a minute.",
  overloaded: "Sorry, the AI model is overloaded right now, so I could not answer. Please try again in a few minutes.",
  server: "Sorry, the AI model's service had an error, so I could not answer. Please try again in a moment.",
  network: "Sorry, I could not reach the AI model, so I could not answer. Please try again in a moment.",
  timeout: "Sorry, the AI model took too long to answer. Please try again in a moment.",
  auth: "Sorry, the AI model refused the bot's credentials, so I cannot answer. Trying again will not help: please tell the bot's admin.",
  invalid_request:
    "Sorry, the AI model refused this conversation, so I could not answer. Send /new to start afresh; if that does not help, tell the bot's admin.",
  context_overflow:
    "Sorry, this conversation has grown too long for the AI model. Send /compact to shorten it or /new to start afresh.",
  aborted: "Sorry, the call to the AI model was cancelled. Please send your message again.",
  unknown:
    "Sorry, something went wrong while I was answering. Please try again; if it keeps failing, tell the bot's admin.",
};

/**
 * The classified failure of the run's last model call, if a provider's answer ended it. A refusal without an HTTP
 * status that is not about reaching the model (a budget's "Budget exhausted: …") is Chorus's own sentence: undefined.
 */
function providerFailureOf(messages: readonly AgentMessage[] | undefined): ProviderErrorKind | undefined {
  const last = messages?.findLast((message) => (message as { role?: string }).role === "assistant");
  const error = (last as { error?: { kind?: ProviderErrorKind; status?: number } } | undefined)?.error;
  if (error?.kind === undefined) return undefined;
  const ownRefusal = error.status === undefined && (error.kind === "invalid_request" || error.kind === "unknown");
  return ownRefusal ? undefined : error.kind;
}

/**
 * The sentence a chat gets when its run ended badly: what failed and whether to retry, never the provider's raw
 * detail (`400 {"type":"error",…}`: that is in the log, with the run's end). A failure of Chorus's own making (a
 * budget refusal, a conversation too large to send) is already a sentence and is shown as it is.
 * Contract: undefined when the user needs no notice (completed runs, /stop, an interrupting message).
 */
export function endNotice(
  reason: string,
  error: string | undefined,
  cause: RunStopCause,
  messages?: readonly AgentMessage[],
): string | undefined {
  if (cause === "timeout") return "That took too long and was stopped.";
  if (cause === "admin") return "An administrator stopped this task.";
  if (cause === "shutdown") return "The bot is restarting; this task was stopped. Send your message again afterwards.";
  if (reason === "aborted") return undefined;
  if (reason === "error") {
    const failure = providerFailureOf(messages);
    if (failure !== undefined) return PROVIDER_FAILURES[failure];
    return `Sorry, that failed: ${firstLine(error ?? "unknown error")}`;
  }
  if (reason === "max_turns") return "I stopped because this task took too many steps.";
  if (reason === "length") return "I stopped because the answer kept getting cut off.";
  return undefined;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
