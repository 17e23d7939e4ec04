import type { GatewayConfigInput } from "@chorus/gateway";
import { afterEach, describe, expect, it } from "vitest";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { goalScript } from "./fixtures/goal-script.js";

const ADMIN = { id: "admin", name: "Admin" };

function config(goals: Record<string, unknown>): GatewayConfigInput {
  return {
    agents: [{ id: "main", model: "fake-model", goals }],
    channels: [
      {
        channel: "test",
        dmPolicy: "open",
        admins: ["admin"],
        groupPolicy: "allowlist",
        groups: { "group-1": { requireMention: false, trust: "guest" } },
      },
    ],
  };
}

describe("/goal refuses bad input with a clear message and stores nothing", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function refused(text: string, sender = ADMIN, chatType: "dm" | "group" = "dm"): Promise<string> {
    await h!.send({ text, sender, chatType });
    const chat = chatType === "dm" ? `dm-${sender.id}` : "group-1";
    const sessions = await h!.store.listSessions();
    for (const session of sessions) expect(session.settings.goal).toBeUndefined();
    expect(h!.streamFn.calls).toHaveLength(0);
    return h!.channel.transcript(chat).at(-1)!;
  }

  it("refuses --auto while autonomous goals are off (the default)", async () => {
    h = await startHarness({ script: goalScript(), config: config({}) });
    expect(await refused("/goal create --auto --turns 3 count to three")).toBe(
      "Autonomous goals are off for this agent (goals.autonomousEnabled is false); /goal <text> still works.",
    );
  });

  it("refuses --turns 0, negative and non-numeric turn counts, and more than the limit", async () => {
    h = await startHarness({
      script: goalScript(),
      config: config({ autonomousEnabled: true, autonomousMaxTurns: 20 }),
    });
    expect(await refused("/goal create --auto --turns 0 count")).toBe("--turns must be at least 1 (got 0).");
    expect(await refused("/goal create --auto --turns -3 count")).toBe("--turns must be at least 1 (got -3).");
    expect(await refused("/goal create --auto --turns ten count")).toBe(
      '--turns takes a whole number of turns, not "ten".',
    );
    expect(await refused("/goal create --auto --turns 2.5 count")).toBe(
      '--turns takes a whole number of turns, not "2.5".',
    );
    expect(await refused("/goal create --auto --turns 21 count")).toBe("--turns can be at most 20 here (got 21).");
    expect(await refused("/goal create --auto --turns")).toBe("--turns needs a number, e.g. --turns 10.");
    expect(await refused("/goal create --turns 3 count")).toBe(
      "--turns only goes with --auto: /goal create --auto --turns N <text>.",
    );
    expect(await refused("/goal create --auto")).toContain("What is the goal?");
    expect(await refused("/goal create --fast x")).toContain("Unknown option --fast.");
  });

  it("refuses an autonomous goal from a guest in a group, and from a non-admin in a DM", async () => {
    h = await startHarness({ script: goalScript(), config: config({ autonomousEnabled: true }) });
    expect(await refused("/goal create --auto tidy up", { id: "guest-1", name: "Guest" }, "group")).toBe(
      "Only admins can start an autonomous goal: it runs the model on its own, and that costs money.",
    );
    expect(await refused("/goal create --auto tidy up", { id: "user-1", name: "User" })).toBe(
      "Only admins can start an autonomous goal: it runs the model on its own, and that costs money.",
    );
  });

  it("says goals are off when the agent turns them off", async () => {
    h = await startHarness({ script: goalScript(), config: config({ enabled: false }) });
    expect(await refused("/goal learn Go")).toBe("Goals are off for this agent.");
    expect(await refused("/done")).toBe("Goals are off for this agent.");
  });

  it("lets the agent allow trusted members to start autonomous goals", async () => {
    h = await startHarness({
      script: goalScript({ supervisor: () => JSON.stringify({ achieved: true, reason: "done" }) }),
      config: {
        ...config({
          autonomousEnabled: true,
          autonomousMinTier: "trusted",
          verifyInterval: 1,
          autonomousTurnDelayMs: 0,
        }),
        channels: [{ channel: "test", dmPolicy: "allowlist", allowFrom: ["user-1"], admins: ["admin"] }],
      },
    });
    await h.send({ text: "/goal create --auto --turns 2 say hi" });
    expect(h.channel.transcript("dm-user-1")[0]).toContain("🎯 Autonomous goal started: say hi");
  });
});
