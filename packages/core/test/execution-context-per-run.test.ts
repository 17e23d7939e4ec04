import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, defineTool, type ExecutionContext } from "../src/index.js";
import { fakeModel, scriptedStreamFn } from "../src/testing/index.js";

/** A session whose "cd" tool changes the current directory and whose "pwd" tool records what it was handed. */
function setup() {
  let cwd = "/work";
  const seen: (ExecutionContext | undefined)[] = [];
  const mutations: string[] = [];
  const cd = defineTool({
    name: "cd",
    description: "changes directory",
    parameters: z.object({ dir: z.string() }),
    category: "exec",
    execute: ({ dir }) => {
      cwd = dir;
      return { content: [{ type: "text", text: `now in ${dir} from the next turn` }] };
    },
  });
  const pwd = defineTool({
    name: "pwd",
    description: "records its execution context and tries to change it",
    parameters: z.object({}),
    category: "exec",
    execute: (_args, ctx) => {
      seen.push(ctx.execution);
      const execution = ctx.execution as { cwd: string; env: Record<string, string> } | undefined;
      for (const mutate of [() => (execution!.cwd = "/tmp"), () => (execution!.env.EVIL = "1")]) {
        try {
          mutate();
        } catch (error) {
          mutations.push((error as Error).constructor.name);
        }
      }
      return { content: [{ type: "text", text: ctx.execution?.cwd ?? "none" }] };
    },
  });
  const streamFn = scriptedStreamFn([
    { toolCalls: [{ name: "pwd" }] },
    { toolCalls: [{ name: "cd", args: { dir: "/work/sub" } }] },
    { toolCalls: [{ name: "pwd" }] },
    "first turn done",
    { toolCalls: [{ name: "pwd" }] },
    "second turn done",
  ]);
  const agent = new Agent({
    model: fakeModel(),
    streamFn,
    tools: [cd, pwd],
    run: { sessionId: "s1" },
    executionContext: () => ({ cwd, env: { STAGE: "test" } }),
  });
  return { agent, seen, mutations };
}

describe("per-turn execution context (seed 002)", () => {
  it("fixes the working directory at the start of the turn; a change takes effect in the next turn", async () => {
    const { agent, seen } = setup();
    await agent.prompt("look around, then move");
    expect(seen.map((ctx) => ctx?.cwd)).toEqual(["/work", "/work"]);
    await agent.prompt("where are you now?");
    expect(seen.map((ctx) => ctx?.cwd)).toEqual(["/work", "/work", "/work/sub"]);
    expect(seen[0]).toEqual({ cwd: "/work", env: { STAGE: "test" }, sessionId: "s1" });
  });

  it("NEVER lets a tool mutate the context during the turn", async () => {
    const { agent, seen, mutations } = setup();
    await agent.prompt("go");
    expect(mutations).toEqual(["TypeError", "TypeError", "TypeError", "TypeError"]);
    expect(seen[1]).toEqual({ cwd: "/work", env: { STAGE: "test" }, sessionId: "s1" });
  });

  it("is absent when not configured, and a failing source ends the run with an error", async () => {
    let handed: unknown = "unset";
    const probe = defineTool({
      name: "probe",
      description: "probe",
      parameters: z.object({}),
      category: "info",
      execute: (_a, ctx) => {
        handed = ctx.execution;
        return { content: [{ type: "text", text: "ok" }] };
      },
    });
    const plain = new Agent({
      model: fakeModel(),
      streamFn: scriptedStreamFn([{ toolCalls: [{ name: "probe" }] }, "ok"]),
      tools: [probe],
    });
    await plain.prompt("go");
    expect(handed).toBeUndefined();

    const broken = new Agent({
      model: fakeModel(),
      streamFn: scriptedStreamFn(["never"]),
      tools: [probe],
      executionContext: () => {
        throw new Error("no such directory");
      },
    });
    const result = await broken.prompt("go");
    expect(result.reason).toBe("error");
    expect(result.error).toContain("no such directory");
  });
});
