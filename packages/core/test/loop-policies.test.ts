import { describe, expect, it } from "vitest";
import { type AgentLoopConfig, agentLoop } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool, ofType, textOf } from "./support/test-tools.js";

const model = fakeModel();
const echoTurn = (text: string) => ({ toolCalls: [{ name: "echo", args: { text } }] });

async function run(script: Parameters<typeof scriptedStreamFn>[0], extra: Partial<AgentLoopConfig>) {
  const streamFn = scriptedStreamFn(script);
  const stream = agentLoop([userMessage("go")], { messages: [] }, { model, streamFn, tools: [echoTool], ...extra });
  const events = await collect(stream);
  return { streamFn, events, end: ofType(events, "agent_end")[0], added: await stream.result() };
}

describe("pre-turn policies", () => {
  it("Stop ends the run before the model call, with reason policy", async () => {
    const { streamFn, end } = await run(["never"], {
      preTurnPolicies: [() => ({ kind: "stop", reason: "budget exhausted" })],
    });
    expect(streamFn.calls).toHaveLength(0);
    expect(end).toMatchObject({ reason: "policy", error: "budget exhausted" });
  });

  it("Continue lets the call go out; the policy sees the request as converted for the model, after the transforms", async () => {
    const seen: string[][] = [];
    const { streamFn, end } = await run(["ok"], {
      transformContext: (messages) => [...messages, userMessage("added by a transform")],
      convertToLlm: (messages) =>
        messages.filter((m) => m.role === "user").map((m) => ({ ...m, content: `llm:${textOf(m)}` })),
      preTurnPolicies: [
        ({ request }) => {
          seen.push(request.messages.map(textOf));
          return { kind: "continue" };
        },
      ],
    });
    expect(seen).toEqual([["llm:go", "llm:added by a transform"]]);
    expect(streamFn.calls[0]?.context.messages.map(textOf)).toEqual(["llm:go", "llm:added by a transform"]);
    expect(end?.reason).toBe("completed");
  });

  it("Stop ends the turn before the model call, after the transforms ran", async () => {
    let transformed = 0;
    const { streamFn, events, end } = await run(["never"], {
      transformContext: (messages) => {
        transformed++;
        return messages;
      },
      preTurnPolicies: [() => ({ kind: "stop", reason: "over budget" })],
    });
    expect(transformed).toBe(1);
    expect(streamFn.calls).toHaveLength(0);
    expect(ofType(events, "turn_end")).toHaveLength(1);
    expect(end).toMatchObject({ reason: "policy", error: "over budget" });
  });

  it("Inject ends the turn too: the messages are kept in the transcript, the model is not called", async () => {
    const { streamFn, events, end, added } = await run(["never"], {
      preTurnPolicies: [() => ({ kind: "inject", messages: [userMessage("note for next time")] })],
    });
    expect(streamFn.calls).toHaveLength(0);
    expect(ofType(events, "turn_end")).toHaveLength(1);
    expect(end?.reason).toBe("policy");
    expect(end?.error).toBeUndefined();
    expect(added.map(textOf)).toEqual(["go", "note for next time"]);
  });
});

describe("pre-dispatch policies", () => {
  it("Deny gives the call an error result with the reason and the loop continues", async () => {
    const { events, streamFn } = await run([echoTurn("secret"), "ok"], {
      preDispatchPolicies: [
        ({ toolCall }) => (toolCall.name === "echo" ? { kind: "deny", reason: "not allowed here" } : undefined),
      ],
    });
    const end = ofType(events, "tool_execution_end")[0];
    expect(end?.isError).toBe(true);
    expect(textOf(end?.result)).toBe("not allowed here");
    expect(streamFn.calls).toHaveLength(2);
  });

  it("Rewrite changes the arguments (validated again) before the tool runs", async () => {
    const { events } = await run([echoTurn("original"), "ok"], {
      preDispatchPolicies: [() => ({ kind: "rewrite", args: { text: "rewritten" } })],
    });
    expect(textOf(ofType(events, "tool_execution_end")[0]?.result)).toBe("rewritten");
  });

  it("Allow, and undefined, let the call run; the policy sees the validated arguments", async () => {
    const seen: unknown[] = [];
    const { events } = await run([echoTurn("fine"), "ok"], {
      preDispatchPolicies: [
        ({ args }) => {
          seen.push(args);
          return { kind: "allow" };
        },
        () => undefined,
      ],
    });
    expect(seen).toEqual([{ text: "fine" }]);
    expect(textOf(ofType(events, "tool_execution_end")[0]?.result)).toBe("fine");
  });
});

describe("post-turn and post-loop policies", () => {
  it("post-turn Stop ends the run after the turn", async () => {
    const { streamFn, end } = await run([echoTurn("a"), "never"], {
      postTurnPolicies: [() => ({ kind: "stop", reason: "enough" })],
    });
    expect(streamFn.calls).toHaveLength(1);
    expect(end).toMatchObject({ reason: "policy", error: "enough" });
  });

  it("post-turn Inject adds messages to the next turn, and starts one if the model had stopped", async () => {
    const { streamFn } = await run(["first", "second"], {
      postTurnPolicies: [
        ({ turn }) => (turn === 1 ? { kind: "inject", messages: [userMessage("check again")] } : undefined),
      ],
    });
    expect(streamFn.calls).toHaveLength(2);
    expect(textOf(streamFn.calls[1]?.context.messages.at(-1))).toBe("check again");
  });

  it("post-loop Continue(messages) starts another turn; Stop ends the run", async () => {
    let asked = 0;
    const { streamFn, end } = await run(["draft", "final"], {
      postLoopPolicies: [
        () => (asked++ === 0 ? { kind: "continue", messages: [userMessage("verify")] } : { kind: "stop" }),
      ],
    });
    expect(streamFn.calls).toHaveLength(2);
    expect(textOf(streamFn.calls[1]?.context.messages.at(-1))).toBe("verify");
    expect(end?.reason).toBe("completed");
  });
});

describe("maxTurns", () => {
  it("ends a run that keeps calling tools, with reason max_turns and a message", async () => {
    const { streamFn, end, events } = await run(() => echoTurn("again"), { maxTurns: 3 });
    expect(streamFn.calls).toHaveLength(3);
    expect(end).toMatchObject({ reason: "max_turns", error: "Stopped after 3 turns (maxTurns reached)" });
    expect(ofType(events, "turn_end")).toHaveLength(3);
  });
});
