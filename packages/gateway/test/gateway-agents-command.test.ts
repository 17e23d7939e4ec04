import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { GatewayLogger } from "../src/logging/gateway-logger.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";
import { subagentScript } from "./fixtures/subagent-script.js";

const CONFIG = {
  agents: [{ id: "main", model: "fake-model", subagents: { maxSpawnDepth: 2 } }],
  channels: [{ channel: "test" as const, dmPolicy: "open" as const, admins: ["admin"], allowFrom: ["user-1"] }],
};

describe("/agents", () => {
  let h: Harness;
  const warnings: { fields: object; message?: string }[] = [];
  const logger: GatewayLogger = {
    info: () => {},
    warn: (fields, message) => void warnings.push(message === undefined ? { fields } : { fields, message }),
    error: () => {},
  };

  beforeEach(async () => {
    vi.useFakeTimers();
    warnings.length = 0;
    h = await startHarness({
      config: CONFIG,
      script: subagentScript(20_000),
      gateway: {
        logger,
        agents: {
          main: {
            subagents: { helper: { description: "helps", tools: [] } },
            // Trusted users (user-1 is allowlisted) may use sub-agents here.
            tiers: { trusted: { allow: ["group:fs-read", "group:info", "group:sessions"] } },
          },
        },
      },
    });
    // A user's run spawns a sub-agent that spawns another one, which takes 20 s.
    await h.channel.inject({ text: "spawn wait level1", sender: { id: "user-1", name: "User" } });
    await vi.advanceTimersByTimeAsync(10);
  });
  afterEach(async () => {
    await vi.runOnlyPendingTimersAsync();
    await h.close();
    vi.useRealTimers();
  });

  it("shows an admin the fleet with the depth-2 sub-agent tree under the user's run", async () => {
    await h.channel.inject({ text: "/agents", sender: { id: "admin", name: "Admin" } });
    await vi.advanceTimersByTimeAsync(10);
    const reply = h.channel.transcript("dm-admin").join("\n");
    expect(reply).toContain("**Fleet**");
    expect(reply).toContain("main: model fake-model");
    const runLines = reply.split("\n").filter((line) => line.includes("· depth "));
    expect(runLines).toHaveLength(3);
    expect(runLines[0]).toMatch(/^▪ `run_.*` main · depth 0 · running · .* · test dm-user-1$/);
    expect(runLines[1]).toMatch(/^└─ `run_.*` helper · depth 1 · running/);
    expect(runLines[2]).toMatch(/^│ └─ `run_.*` helper · depth 2 · running/);
    expect(reply).toContain("3 running run(s)");
  });

  it("refuses anyone else and logs the attempt", async () => {
    await h.channel.inject({ text: "/agents", sender: { id: "mallory", name: "Mallory" } });
    await vi.advanceTimersByTimeAsync(10);
    expect(h.channel.transcript("dm-mallory")).toEqual(["You are not authorised to use /agents."]);
    expect(warnings.some((w) => w.message === "command refused: not authorised")).toBe(true);
    expect(JSON.stringify(warnings)).toContain("mallory");
  });

  it("kills a run with all its sub-agents and tells the affected chat", async () => {
    const root = (await h.store.listRuns({ status: "running" })).find((run) => run.depth === 0)!;
    await h.channel.inject({ text: `/agents kill ${root.id}`, sender: { id: "admin", name: "Admin" } });
    await vi.advanceTimersByTimeAsync(10);
    await h.gateway.idle();
    expect(h.channel.transcript("dm-admin").at(-1)).toBe(
      `Stopped ${root.id} and 2 sub-agent run(s) under it; its chat was told.`,
    );
    const runs = (await h.store.listRuns()).sort((a, b) => a.depth - b.depth);
    expect(runs.map((run) => [run.depth, run.status])).toEqual([
      [0, "aborted"],
      [1, "aborted"],
      [2, "aborted"],
    ]);
    expect(h.channel.transcript("dm-user-1")).toContain("An administrator stopped this task.");
    expect(h.gateway.runs.size).toBe(0);
  });

  it("lists an agent's sessions and describes it", async () => {
    await h.channel.inject({ text: "/agents sessions main", sender: { id: "admin", name: "Admin" } });
    await h.channel.inject({ text: "/agents info main", sender: { id: "admin", name: "Admin" } });
    await h.channel.inject({ text: "/agents info nobody", sender: { id: "admin", name: "Admin" } });
    await vi.advanceTimersByTimeAsync(10);
    const [sessions, info, unknown] = h.channel.transcript("dm-admin");
    expect(sessions).toContain("spawn wait level1");
    expect(sessions).toContain("main:main:test:dm:user-1");
    expect(info).toContain("Tools: spawn_agent, list_subagents, cancel_subagent");
    expect(unknown).toBe('No agent "nobody".');
  });

  it("stores each sub-agent's transcript under a child key that carries its lineage", async () => {
    await vi.advanceTimersByTimeAsync(21_000);
    await h.gateway.idle();
    const runs = await h.store.listRuns();
    const depth2 = runs.find((run) => run.depth === 2)!;
    expect(depth2.sessionKey).toMatch(
      /^agent:helper:sub:2:run_[^:]+:agent:helper:sub:1:run_[^:]+:main:main:test:dm:user-1$/,
    );
    const transcript = await h.store.readTranscript(depth2.sessionKey);
    expect(transcript.map((entry) => entry.message.role)).toEqual(["user", "assistant"]);
    expect(h.channel.transcript("dm-user-1").at(-1)).toContain("done:");
  });
});
