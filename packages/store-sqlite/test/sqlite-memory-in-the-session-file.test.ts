import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { memoryExtension } from "@chorus/extension-memory";
import { toolCallScript } from "@chorus/extension-memory/testing";
import { Gateway, TestChannel } from "@chorus/gateway";
import { SqliteMemoryStore } from "@chorus/memory";
import { afterEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";

const script = toolCallScript("remember", "remember", "fact", () => "noted");

let gateway: Gateway | undefined;
let store: SqliteSessionStore | undefined;
afterEach(async () => {
  await gateway?.stop(0);
  await store?.close();
});

it("commits facts inside the turn's transaction, and a fact the memory store refuses there costs the turn nothing", async () => {
  store = SqliteSessionStore.open({ path: ":memory:" });
  // A tighter cap than the tool's own check: the second fact passes the tool and is refused inside the commit.
  const memory = new SqliteMemoryStore({ database: store.database, maxFactChars: 40 });
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const model = fakeModel();
  const sideWritten: boolean[] = [];
  const commitTurn = store.commitTurn.bind(store);
  store.commitTurn = async (turn) => {
    const result = await commitTurn(turn);
    if (turn.sideWrites !== undefined) sideWritten.push(result.sideWritten === true);
    return result;
  };
  gateway = new Gateway({
    config: {
      agents: [{ id: "main", model: model.id }],
      channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"] }],
    },
    store,
    channels: [channel],
    streamFn: scriptedStreamFn(script),
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    replyMode: "block",
    extensions: [memoryExtension({ store: memory })],
  });
  await gateway.start();
  const send = async (text: string) => {
    await channel.inject({ chatType: "dm", text, sender: { id: "admin" } });
    await gateway?.idle();
  };

  await send("remember: Admin drinks green tea");
  await send("remember: Admin's favourite book is a very long Russian novel about war and peace");
  expect(sideWritten).toEqual([true, true]);
  expect((await memory.export("user:test:admin")).facts.map((fact) => fact.text)).toEqual(["Admin drinks green tea"]);
  // Both turns are stored and answered.
  expect(channel.transcript("dm-admin")).toEqual(["noted", "noted"]);
  const roles = (await store.readTranscript("main:main:test:dm:admin")).map((entry) => entry.message.role);
  expect(roles).toEqual([
    "user",
    "assistant",
    "toolResult",
    "assistant",
    "user",
    "assistant",
    "toolResult",
    "assistant",
  ]);
});
