import { appendMessage, type RunState } from "./run-state.js";

/** Adds the messages waiting for this turn (prompts, steering, injections) to the transcript. */
export function flushPending(state: RunState): void {
  if (state.pending.length === 0) return;
  const pending = state.pending;
  state.pending = [];
  for (const m of pending) appendMessage(state, m);
}

/** Polls steering or follow-up messages into `pending`; synchronous when the provider is. */
export function pollInto(state: RunState, which: "steering" | "followUp"): void | Promise<void> {
  const provider = state.config.messageProvider;
  if (!provider) return;
  const polled = which === "steering" ? provider.pollSteering() : provider.pollFollowUp();
  if (!(polled instanceof Promise)) {
    if (polled.length > 0) state.pending.push(...polled);
    return;
  }
  return polled.then((messages) => {
    if (messages.length > 0) state.pending.push(...messages);
  });
}
