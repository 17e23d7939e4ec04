import { defineTool, type StreamContext } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { GatewayExtension, SessionChats } from "../src/extension/index.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

const CONFIG = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [
    { channel: "test", admins: ["owner"], groups: { g1: { requireMention: false, trust: "trusted" as const } } },
  ],
};
const owner = { chatType: "group" as const, chatId: "g1", sender: { id: "owner", name: "Owner" } };
const member = { chatType: "group" as const, chatId: "g1", sender: { id: "member", name: "Member" } };

describe("an extension's call-time policies, its posts in a chat and the session changes its commands make", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("a policy denies the agent's tool call before it runs, and the model reads why", async () => {
    const deleted: string[] = [];
    const wipe = defineTool({
      name: "wipe",
      description: "deletes a folder",
      parameters: z.object({ folder: z.string() }),
      category: "edit",
      execute: async ({ folder }) => {
        deleted.push(folder);
        return { content: [{ type: "text", text: "gone" }] };
      },
    });
    const script = (context: StreamContext) => {
      const last = context.messages.at(-1) as { role: string; content: unknown };
      if (last.role === "toolResult") return `tool said ${JSON.stringify(last.content)}`;
      return { toolCalls: [{ name: "wipe", args: { folder: "/srv" } }] };
    };
    const freeze: GatewayExtension = {
      name: "change-freeze",
      policiesFor: () => [
        ({ tool }) => (tool.name === "wipe" ? { kind: "deny", reason: "a change freeze is on" } : undefined),
      ],
    };
    h = await startHarness({
      config: CONFIG,
      script,
      gateway: { agents: { main: { tools: [wipe] } }, extensions: [freeze] },
    });
    await h.send({ ...owner, text: "clean up" });
    expect(deleted).toEqual([]);
    expect(chatTexts(h.channel, "g1").at(-1)).toContain("a change freeze is on");
  });

  it("a command's session change is the group's admins' unless granted, and it posts in the chat with buttons", async () => {
    let chats: SessionChats | undefined;
    const ran: string[] = [];
    const lockdown: GatewayExtension = {
      name: "lockdown",
      start: (context) => {
        chats = context.chats;
      },
      commands: [
        {
          name: "lockdown",
          usage: "/lockdown [status]",
          description: "stops the group's queue",
          adminOnly: false,
          sessionChange: (args) => (args[0] === "status" ? undefined : "queue"),
          async run({ sessionKey, args, message }) {
            ran.push(`${message.sender.id} ${args.join(" ")}`.trim());
            await chats?.post(sessionKey, "Locked down.", [{ id: "/lockdown status", label: "Status" }]);
            return "ok";
          },
        },
      ],
    };
    h = await startHarness({
      config: CONFIG,
      script: () => "hi",
      channel: { capabilities: { buttons: true } },
      gateway: { extensions: [lockdown] },
    });
    await h.send({ ...member, text: "/lockdown" });
    expect(ran).toEqual([]);
    expect(chatTexts(h.channel, "g1").at(-1)).toMatch(/^Only an admin can change/);
    // Words that change nothing are anyone's.
    await h.send({ ...member, text: "/lockdown status" });
    expect(ran).toEqual(["member status"]);

    await h.send({ ...owner, text: "/lockdown" });
    expect(ran).toEqual(["member status", "owner"]);
    await expect.poll(() => chatTexts((h as Harness).channel, "g1")).toContain("Locked down.");
    const posted = h.channel.succeeded("send").filter((call) => call.outbound.text === "Locked down.");
    expect(posted.at(-1)?.outbound.buttons).toEqual([{ id: "/lockdown status", label: "Status" }]);
  });
});
