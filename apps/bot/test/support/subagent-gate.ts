import { AssistantMessageEventStream, type StreamFn } from "@chorus/core";

/**
 * Holds every sub-agent model call until `open()`, so a test can look at a run tree while the sub-agent is
 * certainly still running. Root agents' calls pass straight through.
 */
export class SubagentGate {
  #open!: () => void;
  readonly #opened = new Promise<void>((resolve) => {
    this.#open = resolve;
  });

  wrap = (streamFn: StreamFn): StreamFn => {
    return (model, context, options) => {
      if (!/You are a sub-agent at depth/.test(context.systemPrompt ?? "")) return streamFn(model, context, options);
      return deferredStream(this.#opened, () => streamFn(model, context, options));
    };
  };

  open(): void {
    this.#open();
  }
}

/** A stream whose events start flowing, from the real stream, once `ready` resolves. */
function deferredStream(ready: Promise<void>, start: () => ReturnType<StreamFn>): AssistantMessageEventStream {
  const out = new AssistantMessageEventStream();
  void ready.then(async () => {
    for await (const event of start()) out.push(event);
  });
  return out;
}
