import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_COMMANDS } from "../src/commands/builtin-commands.js";
import { parseCommand } from "../src/commands/parse-command.js";
import type { GatewayConfigInput } from "../src/config/index.js";
import { BUILTIN_COMMAND_PERMISSIONS, commandPermissionsOf } from "../src/permissions/command-permission-table.js";
import { skillsExtension } from "../src/skills/skills-extension.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const CONFIG: GatewayConfigInput = {
  agents: [
    {
      id: "main",
      model: "fake-model",
      models: ["fake-model", "fake-large"],
      goals: { autonomousEnabled: true },
    },
  ],
  channels: [
    {
      channel: "test",
      admins: ["owner"],
      dmPolicy: "open",
      groups: {
        guests: { requireMention: false, trust: "guest" },
        granting: { requireMention: false, trust: "guest", membersMay: ["queue"] },
      },
    },
  ],
};
const EXTENSIONS = [skillsExtension({})];
const guest = { chatType: "group" as const, sender: { id: "guest", name: "Guest" } };
const REFUSAL = /^(You are not authorised|Only an admin|Only admins|You cannot change)/;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    config: CONFIG,
    script: () => "ok",
    gateway: {
      rateCap: false,
      // The extensions of this package: their commands' rows are in the table too.
      extensions: EXTENSIONS,
    },
  });
  // The group's session exists and has a conversation (so /compact would have something to do).
  await h.send({ ...guest, chatId: "guests", text: "hello" });
});
afterAll(async () => {
  await h.close();
});

/** What of the group's session a refused command must leave as it was. */
async function sessionState(chatId: string) {
  const session = (await h.store.listSessions({ agentId: "main" })).find((s) => s.chatId === chatId);
  const transcript = session === undefined ? [] : await h.store.readTranscript(session.key);
  return {
    modelOverride: session?.modelOverride,
    queueModeOverride: session?.queueModeOverride,
    settings: session?.settings,
    transcript: transcript.length,
    modelCalls: h.streamFn.calls.length,
  };
}

// docs/security.md holds the bot's whole table (this package's rows and its extensions'): the bot's
// command-permission-table-is-in-the-docs test checks it; the extensions in their own packages walk their rows there.
describe("docs/security.md's table of who may use each command", () => {
  it("lists every builtin command", () => {
    const listed = new Set(
      BUILTIN_COMMAND_PERMISSIONS.flatMap((row) => row.examples.map((text) => parseCommand(text)?.name)),
    );
    expect(BUILTIN_COMMANDS.map((command) => command.name).filter((name) => !listed.has(name))).toEqual([]);
  });

  const examples = commandPermissionsOf(EXTENSIONS).flatMap((row) => row.examples.map((text) => ({ text, row })));
  it.each(examples)("a guest in a group: $text → $row.guestInGroup", async ({ text, row }) => {
    const before = await sessionState("guests");
    await h.send({ ...guest, chatId: "guests", text });
    const answer = h.channel.transcript("guests").at(-1) ?? "";
    if (row.guestInGroup === "refused") {
      expect(answer).toMatch(REFUSAL);
      // A refusal changes and spends nothing.
      expect(await sessionState("guests")).toEqual(before);
    } else {
      expect(answer).not.toMatch(REFUSAL);
      if (row.guestInGroup === "own") expect(answer).toMatch(/^Nothing of yours is running here/);
    }
  });

  it("an admin in the same group makes the changes a guest may not", async () => {
    await h.send({
      chatType: "group",
      chatId: "guests",
      sender: { id: "owner", name: "Owner" },
      text: "/queue collect",
    });
    expect(h.channel.transcript("guests").at(-1)).toBe("Queue mode set to collect.");
    await h.send({
      chatType: "group",
      chatId: "guests",
      sender: { id: "owner", name: "Owner" },
      text: "/model fake-large",
    });
    expect(h.channel.transcript("guests").at(-1)).toBe("This chat now uses fake-large.");
    expect((await sessionState("guests")).queueModeOverride).toBe("collect");
  });

  it("a group's `membersMay` grants its members a change, and only that one", async () => {
    await h.send({ ...guest, chatId: "granting", text: "/queue followup" });
    expect(h.channel.transcript("granting").at(-1)).toBe("Queue mode set to followup.");
    await h.send({ ...guest, chatId: "granting", text: "/model fake-large" });
    expect(h.channel.transcript("granting").at(-1)).toBe("Only an admin can switch this chat's model in this group.");
    expect(await sessionState("granting")).toMatchObject({ queueModeOverride: "followup", modelOverride: undefined });
  });

  it("a DM's own person makes the changes in their own session", async () => {
    const dm = { chatType: "dm" as const, chatId: "guest-dm", sender: { id: "guest", name: "Guest" } };
    await h.send({ ...dm, text: "/queue interrupt" });
    expect(h.channel.transcript("guest-dm").at(-1)).toBe("Queue mode set to interrupt.");
  });
});
