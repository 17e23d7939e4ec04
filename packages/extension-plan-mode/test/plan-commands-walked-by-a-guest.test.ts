import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planModeExtension } from "../src/index.js";

// Plan mode's rows of docs/security.md's command table (`commandPermissions`; moved from the gateway's
// command-permission-table-walked-by-a-guest test): a guest in a group tries each example.

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
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
const planMode = planModeExtension({ agents: ["main"] });

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ config: CONFIG, script: () => "ok", gateway: { rateCap: false, extensions: [planMode] } });
  await h.send({ ...guest, text: "hello" });
});
afterAll(async () => {
  await h.close();
});

/** What of the group's session a refused command must leave as it was. */
async function state() {
  const session = (await h.store.listSessions({ agentId: "main" })).find((s) => s.chatId === "guests");
  return { settings: session?.settings, modelCalls: h.streamFn.calls.length };
}

describe("docs/security.md's /plan rows, walked by a guest in a group", () => {
  const examples = (planMode.commandPermissions ?? []).flatMap((row) => row.examples.map((text) => ({ text, row })));

  it("has rows for /plan", () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
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
