import { type GatewayConfigInput, parseCommand } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { autonomyExtension } from "../src/index.js";
import { type AutonomyHarness, startAutonomyHarness } from "./fixtures/autonomy-harness.js";

// The autonomy extension's rows of docs/security.md's command table (`commandPermissions`; the gateway's
// command-permission-table-walked-by-a-guest test walks its own): a guest in a group tries each example.

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model", goals: { autonomousEnabled: true } }],
  channels: [
    {
      channel: "test",
      admins: ["owner"],
      dmPolicy: "open",
      groups: { guests: { requireMention: false, trust: "guest" } },
    },
  ],
};
const guest = { chatType: "group" as const, chatId: "guests", sender: { id: "guest", name: "Guest" } };
const REFUSAL = /^(You are not authorised|Only an admin|Only admins|You cannot change)/;
const AUTONOMY = new Set(["goal", "done", "clear", "usage", "schedule"]);
const DECLARED = autonomyExtension().commandPermissions ?? [];

let h: AutonomyHarness;
beforeAll(async () => {
  h = await startAutonomyHarness({ config: CONFIG, script: () => "ok", gateway: { rateCap: false } });
  await h.send({ ...guest, text: "hello" });
});
afterAll(async () => {
  await h.close();
});

/** What of the group's session a refused command must leave as it was. */
async function state() {
  const session = (await h.store.listSessions({ agentId: "main" })).find((s) => s.chatId === "guests");
  return {
    settings: session?.settings,
    schedules: (await h.store.listSchedules()).length,
    modelCalls: h.streamFn.calls.length,
  };
}

describe("docs/security.md's goal, schedule and usage rows, walked by a guest in a group", () => {
  const examples = DECLARED.flatMap((row) => row.examples.map((text) => ({ text, row })));

  it("has rows for each of its commands", () => {
    expect(new Set(examples.map(({ text }) => parseCommand(text)?.name))).toEqual(AUTONOMY);
  });

  it.each(examples)("a guest in a group: $text → $row.guestInGroup", async ({ text, row }) => {
    const before = await state();
    await h.send({ ...guest, text });
    const answer = h.channel.transcript("guests").at(-1) ?? "";
    if (row.guestInGroup === "refused") {
      expect(answer).toMatch(REFUSAL);
      expect(await state()).toEqual(before);
    } else {
      expect(answer).not.toMatch(REFUSAL);
    }
  });
});
