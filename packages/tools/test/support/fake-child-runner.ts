import { emptyUsage, type Usage } from "@chorus/core";
import type { ChildRunner, ChildRunRequest } from "../../src/subagents/subagent-types.js";

/** A ChildRunner for tests that do not need a model: it records requests and answers by script. */
export function fakeChildRunner(
  answer: (request: ChildRunRequest) => Promise<string> | string = (r) => `done: ${r.task}`,
  usage: () => Usage = emptyUsage,
): ChildRunner & { requests: ChildRunRequest[] } {
  const requests: ChildRunRequest[] = [];
  const runner: ChildRunner = async (request) => {
    requests.push(request);
    try {
      const text = await answer(request);
      return { status: request.signal.aborted ? "aborted" : "completed", text, usage: usage() };
    } catch (error) {
      return { status: request.signal.aborted ? "aborted" : "failed", text: (error as Error).message, usage: usage() };
    }
  };
  return Object.assign(runner, { requests });
}

/** Resolves when the signal aborts (a child that works until cancelled). */
export function untilAborted(signal: AbortSignal): Promise<string> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error("aborted"));
    signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
  });
}
