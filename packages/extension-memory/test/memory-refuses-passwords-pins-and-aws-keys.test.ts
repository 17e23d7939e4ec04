import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { SqliteMemoryStore } from "@chorus/memory";
import { afterEach, describe, expect, it } from "vitest";
import { memoryExtension } from "../src/index.js";
import { toolCallScript } from "../src/testing/index.js";

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", dmPolicy: "open", allowFrom: ["alice"], admins: ["owner"] }],
};

const memoryScript = toolCallScript("remember", "remember", "fact");

let h: Harness;
let memory: SqliteMemoryStore;
afterEach(async () => {
  await h.close();
  await memory.close();
});

describe("the secret check of long-term memory", () => {
  it.each([
    ["a password", "my password is hunter2", "hunter2"],
    ["a PIN", "My PIN is 4711", "4711"],
    ["an AWS secret key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"],
    ["an AWS temporary key id", "the deploy key id is ASIAIOSFODNN7EXAMPLE", "ASIAIOSFODNN7EXAMPLE"],
  ])("refuses %s, says so in the chat without repeating it, and keeps nothing", async (_what, fact, secret) => {
    memory = new SqliteMemoryStore({ path: ":memory:" });
    h = await startHarness({
      config: CONFIG,
      script: memoryScript,
      gateway: { extensions: [memoryExtension({ store: memory })] },
    });
    await h.send({ chatType: "dm", text: `remember: ${fact}`, sender: { id: "alice" } });
    const answer = h.channel.transcript("dm-alice").at(-1) ?? "";
    expect(answer).toContain("memory never keeps secrets");
    expect(answer).not.toContain(secret);
    expect(await memory.countByScope()).toEqual([]);
  });

  it("still keeps facts that only mention a password or a pin", async () => {
    memory = new SqliteMemoryStore({ path: ":memory:" });
    h = await startHarness({
      config: CONFIG,
      script: memoryScript,
      gateway: { extensions: [memoryExtension({ store: memory })] },
    });
    await h.send({
      chatType: "dm",
      text: "remember: Alice keeps the pin cushion in the drawer",
      sender: { id: "alice" },
    });
    await h.send({ chatType: "dm", text: "remember: Alice forgot her password yesterday", sender: { id: "alice" } });
    expect((await memory.list("user:test:alice")).total).toBe(2);
  });
});
