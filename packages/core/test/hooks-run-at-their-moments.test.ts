import { describe, expect, it } from "vitest";
import {
  type AgentLoopConfig,
  type AgentMessage,
  agentLoop,
  defaultRetryStrategy,
  type HookEvent,
} from "../src/index.js";
import { assistantText, fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool, ofType, textOf } from "./support/test-tools.js";

const model = fakeModel();
const echoTurn = (text: string) => ({ toolCalls: [{ name: "echo", args: { text } }] });

async function run(script: Parameters<typeof scriptedStreamFn>[0], extra: Partial<AgentLoopConfig>) {
  const streamFn = scriptedStreamFn(script);
  const stream = agentLoop([userMessage("go")], { messages: [] }, { model, streamFn, tools: [echoTool], ...extra });
  const events = await collect(stream);
  return { streamFn, events, end: ofType(events, "agent_end")[0] };
}

describe("hooks in the loop (seed 003 steps 9, 10, 16, pre/post tool)", () => {
  it("turn_start, pre_prompt, pre_tool_use and post_tool_use each see their event, in order", async () => {
    const seen: HookEvent[] = [];
    let postDone: () => void = () => {};
    const posted = new Promise<void>((resolve) => {
      postDone = resolve;
    });
    const record = (event: HookEvent) => {
      seen.push(event);
      if (event.event === "post_tool_use") postDone();
      return undefined;
    };
    const { end } = await run([echoTurn("hi"), "done"], {
      hooks: { turn_start: [record], pre_prompt: [record], pre_tool_use: [record], post_tool_use: [record] },
    });
    await posted;
    expect(end?.reason).toBe("completed");
    expect(seen.map((e) => e.event)).toEqual([
      "turn_start",
      "pre_prompt",
      "pre_tool_use",
      "post_tool_use",
      "turn_start",
      "pre_prompt",
    ]);
    expect(seen[2]).toMatchObject({ toolName: "echo", args: { text: "hi" } });
    expect(seen[3]).toMatchObject({ toolName: "echo", isError: false, output: "hi" });
  });

  it("a blocking pre_tool_use hook denies the call with its reason and the model is told", async () => {
    const { events, streamFn } = await run([echoTurn("rm -rf"), "ok"], {
      hooks: { pre_tool_use: [() => ({ kind: "block", reason: "no deletes" })] },
    });
    const result = ofType(events, "tool_execution_end")[0];
    expect(result?.isError).toBe(true);
    expect(textOf(result?.result)).toContain("no deletes");
    expect(streamFn.calls).toHaveLength(2);
  });

  it("a throwing pre_tool_use hook blocks too (a failure is never an allow)", async () => {
    const { events } = await run([echoTurn("x"), "ok"], {
      hooks: {
        pre_tool_use: [
          () => {
            throw new Error("hook crashed");
          },
        ],
      },
    });
    expect(textOf(ofType(events, "tool_execution_end")[0]?.result)).toContain("hook crashed");
  });

  it("a failing post_tool_use hook changes nothing and is logged", async () => {
    const warnings: string[] = [];
    let failed: () => void = () => {};
    const logged = new Promise<void>((resolve) => {
      failed = resolve;
    });
    const logger = {
      warn: (_obj: Record<string, unknown>, msg?: string) => {
        warnings.push(msg ?? "");
        if (msg === "hook failed") failed();
      },
    };
    const { events, end } = await run([echoTurn("fine"), "ok"], {
      logger,
      hooks: { post_tool_use: [() => Promise.reject(new Error("audit down"))] },
    });
    await logged;
    expect(textOf(ofType(events, "tool_execution_end")[0]?.result)).toBe("fine");
    expect(end?.reason).toBe("completed");
    expect(warnings).toContain("hook failed");
  });

  it("a blocking turn_start hook stops the run cleanly before the model call", async () => {
    const { end, streamFn } = await run(["never"], {
      hooks: { turn_start: [() => ({ kind: "block", reason: "quota reached" })] },
    });
    expect(streamFn.calls).toHaveLength(0);
    expect(end).toMatchObject({ reason: "policy" });
    expect(end?.error).toContain("quota reached");
  });

  it("pre_compact runs right before a summarising compaction", async () => {
    const big = (n: number): string => "x".repeat(n * 4);
    const history: AgentMessage[] = [];
    for (let i = 0; i < 10; i++) history.push(userMessage(big(500)), assistantText(big(400)));
    const order: string[] = [];
    const streamFn = scriptedStreamFn((ctx) => {
      const summary = ctx.systemPrompt?.startsWith("You are compacting");
      order.push(summary ? "summary call" : "model call");
      return summary ? "the gist" : "answer";
    });
    const hooks = {
      pre_compact: [
        (event: HookEvent) => {
          order.push(event.event);
          return undefined;
        },
      ],
    };
    await collect(
      agentLoop(
        [userMessage("now")],
        { messages: history },
        {
          model: fakeModel({ contextWindow: 10_000 }),
          streamFn,
          hooks,
          context: { reserve: 2_000, blockingReserve: 500, compaction: { keepRecentTokens: 1_500 } },
        },
      ),
    );
    expect(order).toEqual(["pre_compact", "summary call", "model call"]);
  });

  it("pre_prompt fires once per turn, not once per stream retry", async () => {
    const prompts: number[] = [];
    const { streamFn, end } = await run(
      [{ fault: "error", error: { kind: "server", message: "500", retryAfterMs: 0 } }, "hello"],
      {
        retryStrategy: defaultRetryStrategy({ random: () => 0, baseDelayMs: 0 }),
        hooks: {
          pre_prompt: [
            (event) => {
              if (event.event === "pre_prompt") prompts.push(event.turn);
              return undefined;
            },
          ],
        },
      },
    );
    expect(streamFn.calls).toHaveLength(2);
    expect(end?.reason).toBe("completed");
    expect(prompts).toEqual([1]);
  });
});
