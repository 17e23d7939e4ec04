import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, TestChannel } from "@chorus/gateway";
import { SqliteMemoryStore } from "@chorus/memory";
import { MemorySessionStore } from "@chorus/store";
import { afterEach, expect, it } from "vitest";
import { linkedPeople, memoryExtension } from "../src/index.js";
import { toolCallScript } from "../src/testing/index.js";

const script = toolCallScript("remember", "remember", "fact", () => "noted");

let gateway: Gateway | undefined;
let memory: SqliteMemoryStore | undefined;
afterEach(async () => {
  await gateway?.stop(0);
  await memory?.close();
});

it("recalls in Alice's Discord DM what she asked to remember in her Telegram DM once her accounts are linked", async () => {
  memory = new SqliteMemoryStore({ path: ":memory:" });
  const telegram = new TestChannel({ id: "telegram", accountId: "main" });
  const discord = new TestChannel({ id: "discord", accountId: "main" });
  const streamFn = scriptedStreamFn(script);
  const model = fakeModel();
  gateway = new Gateway({
    config: {
      agents: [{ id: "main", model: model.id }],
      channels: [
        { channel: "telegram", dmPolicy: "open", admins: ["123"] },
        { channel: "discord", dmPolicy: "open", admins: ["456", "789"] },
      ],
    },
    store: new MemorySessionStore(),
    channels: [telegram, discord],
    streamFn,
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    replyMode: "block",
    extensions: [
      memoryExtension({ store: memory, personOf: linkedPeople({ alice: ["telegram:123", "discord:456"] }) }),
    ],
  });
  await gateway.start();
  const send = async (channel: TestChannel, sender: string, text: string) => {
    await channel.inject({ chatType: "dm", text, sender: { id: sender } });
    await gateway?.idle();
  };

  await send(telegram, "123", "remember: Alice's flat is on the fourth floor");
  expect(await memory.countByScope()).toEqual([{ scope: "user:person:alice", count: 1 }]);

  await send(discord, "456", "which floor is my flat on?");
  expect(streamFn.calls.at(-1)?.context.systemPrompt).toContain("Alice's flat is on the fourth floor");
  // Someone else's Discord account is a person of their own.
  await send(discord, "789", "which floor is my flat on?");
  expect(streamFn.calls.at(-1)?.context.systemPrompt ?? "").not.toContain("fourth floor");
});
