import type { GatewayConfigInput } from "@chorus/gateway";
import { afterEach, describe, expect, it, vi } from "vitest";
import { goalOf } from "../src/goals/goal-record.js";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { autonomousTurnOf, goalScript } from "./fixtures/goal-script.js";

const ADMIN = { id: "admin", name: "Admin" };
const USER = { id: "user-1", name: "User" };
const OTHER = { id: "user-2", name: "Other" };
const USER_KEY = "main:main:test:dm:user-1";

const config: GatewayConfigInput = {
  agents: [
    {
      id: "main",
      model: "fake-model",
      goals: { autonomousEnabled: true, autonomousMinTier: "trusted", verifyInterval: 50, autonomousTurnDelayMs: 1 },
    },
  ],
  channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"], allowFrom: ["user-1", "user-2"] }],
};

/** Turns from the second on take a while, so that the goal is still running when it is controlled. */
const script = goalScript({
  agent: (turn) => (turn === 1 ? "step 1" : { blocks: [{ type: "text", text: `step ${turn}`, delayMs: 300 }] }),
});

function agentTurns(h: Harness): number[] {
  return h.streamFn.calls.flatMap((call) => autonomousTurnOf(call.context) ?? []);
}

/** The buttons under the last message sent to a chat. */
function lastButtons(h: Harness, chatId: string) {
  return h.channel.succeeded("send").findLast((call) => call.target.chatId === chatId)?.outbound.buttons ?? [];
}

async function storedGoal(h: Harness) {
  const session = await h.store.getSession(USER_KEY);
  return session === undefined ? undefined : goalOf(session.settings);
}

describe("controlling autonomous goals by id and by the buttons under /agents", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("puts Pause and Stop under /agents where the channel has buttons; a press pauses the goal and its chat is told", async () => {
    h = await startHarness({ script, config, channel: { capabilities: { buttons: true } } });
    await h.channel.inject({ text: "/goal create --auto --turns 10 count slowly", sender: USER });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(2), { interval: 5 });
    const id = (await storedGoal(h))!.id;

    await h.channel.inject({ text: "/agents", sender: ADMIN });
    await vi.waitFor(() => expect(lastButtons(h!, "dm-admin")).not.toEqual([]), { interval: 5 });
    const buttons = lastButtons(h, "dm-admin");
    expect(buttons).toEqual([
      { id: `/goal pause ${id}`, label: `Pause ${id.slice(0, 8)}` },
      { id: `/goal stop ${id}`, label: `Stop ${id.slice(0, 8)}` },
    ]);
    expect(h.channel.transcript("dm-admin").at(-1)).toContain(`\`${USER_KEY}\` · id \`${id.slice(0, 8)}\``);

    // A press arrives as the button's command, from whoever pressed it.
    await h.send({ text: buttons[0]!.id, sender: ADMIN });
    expect(h.channel.transcript("dm-admin").at(-1)).toMatch(/^Paused the autonomous goal after \d+ turn\(s\)/);
    expect(h.channel.transcript("dm-user-1")).toContain("An administrator paused this chat's autonomous goal.");
    expect((await storedGoal(h))?.auto?.status).toBe("paused");

    await h.send({ text: "/agents", sender: ADMIN });
    expect(lastButtons(h, "dm-admin").map((button) => button.label)).toEqual([
      `Resume ${id.slice(0, 8)}`,
      `Stop ${id.slice(0, 8)}`,
    ]);
  });

  it("/goal stop <id> works from any chat for whoever started the goal and admins, and refuses others", async () => {
    h = await startHarness({ script, config });
    await h.channel.inject({ text: "/goal create --auto --turns 10 count slowly", sender: USER });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(2), { interval: 5 });
    const short = (await storedGoal(h))!.id.slice(0, 8);

    // Commands are answered while the goal runs (injected: waiting for idle would wait for the whole goal).
    await h.channel.inject({ text: `/goal stop ${short}`, sender: OTHER });
    await h.channel.inject({ text: "/goal pause 0badc0de", sender: ADMIN });
    await vi.waitFor(
      () => {
        expect(h!.channel.transcript("dm-user-2")).toContain(
          "Only whoever started this autonomous goal, or an admin, can stop it.",
        );
        expect(h!.channel.transcript("dm-admin")).toContain(
          "No autonomous goal with id 0badc0de. /agents lists them (admins), /goal shows this chat's.",
        );
      },
      { interval: 5 },
    );
    expect((await storedGoal(h))?.auto?.status).toBe("running");

    await h.send({ text: `/goal stop ${short}`, sender: USER });
    expect(h.channel.transcript("dm-user-1")).toContainEqual(
      expect.stringMatching(/^Stopped the autonomous goal after \d+ turn\(s\)\.$/),
    );
    expect((await storedGoal(h))?.auto).toMatchObject({ status: "stopped" });
    // A goal whose text merely starts with a control word is still a goal.
    await h.send({ text: "/goal stop smoking", sender: OTHER });
    expect(h.channel.transcript("dm-user-2").at(-1)).toContain("stop smoking");
  });

  it("/agents has no buttons where the channel has none: the commands are in its text", async () => {
    h = await startHarness({ script, config, channel: { capabilities: { buttons: false } } });
    await h.channel.inject({ text: "/goal create --auto --turns 10 count slowly", sender: USER });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(2), { interval: 5 });
    await h.channel.inject({ text: "/agents", sender: ADMIN });
    await vi.waitFor(() => expect(h!.channel.transcript("dm-admin")).not.toEqual([]), { interval: 5 });
    expect(h.channel.transcript("dm-admin").at(-1)).toContain("/goal stop|pause|resume <id> from any chat");
    expect(lastButtons(h, "dm-admin")).toEqual([]);
    await h.send({ text: "/goal stop", sender: USER });
    expect((await storedGoal(h))?.auto?.status).toBe("stopped");
  });
});
