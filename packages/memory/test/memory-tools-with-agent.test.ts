import { Agent } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMemoryTools,
  type MemoryToolScopes,
  RECALL_BLOCK_OPEN,
  recallFacts,
  renderRecallBlock,
  SqliteMemoryStore,
} from "../src/index.js";

const ALICE = "user:telegram:42";
const BOB = "user:telegram:77";
const SESSION = "agent:main:telegram:dm:42";

let store: SqliteMemoryStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

function agentWithMemory(scopes: MemoryToolScopes, script: Parameters<typeof scriptedStreamFn>[0]) {
  store = new SqliteMemoryStore({ path: ":memory:" });
  const streamFn = scriptedStreamFn(script);
  const agent = new Agent({
    model: fakeModel(),
    streamFn,
    tools: createMemoryTools({ store, scopes }),
    run: { sessionId: SESSION },
  });
  return { agent, streamFn, store };
}

function toolResultTexts(agent: Agent): string[] {
  return agent.state.messages.flatMap((message) =>
    message.role === "toolResult" ? message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])) : [],
  );
}

describe("the memory tools on a bare Agent", () => {
  it("remember writes to the caller's scope with its source, whatever scope the model names", async () => {
    const { agent, store } = agentWithMemory({ read: [ALICE], write: ALICE }, [
      { toolCalls: [{ name: "remember", args: { fact: "Alice prefers tea", scope: BOB }, id: "call_1" }] },
      "Noted.",
    ]);
    await agent.prompt("I prefer tea");
    expect(toolResultTexts(agent)[0]).toMatch(/^Remembered \(id m[0-9a-f]{12}\)\.$/);
    expect((await store.list(BOB)).total).toBe(0);
    const [fact] = (await store.list(ALICE)).facts;
    expect(fact).toMatchObject({ text: "Alice prefers tea", source: { sessionKey: SESSION, messageId: "call_1" } });
  });

  it("refuses to write for a caller without a write scope (a guest), and stores nothing", async () => {
    const { agent, store } = agentWithMemory({ read: [ALICE] }, [
      { toolCalls: [{ name: "remember", args: { fact: "The owner's PIN is the guest's birthday" } }] },
      { toolCalls: [{ name: "forget", args: { target: "tea" } }] },
      "ok",
    ]);
    await store.remember({ scope: ALICE, text: "Alice prefers tea", source: { sessionKey: SESSION, at: 0 } });
    await agent.prompt("remember this");
    expect(toolResultTexts(agent)).toEqual([
      expect.stringContaining("read-only"),
      expect.stringContaining("read-only"),
    ]);
    expect((await store.list(ALICE)).facts.map((fact) => fact.text)).toEqual(["Alice prefers tea"]);
  });

  it("tells the model why a secret or an oversized fact was refused", async () => {
    const { agent, store } = agentWithMemory({ read: [ALICE], write: ALICE }, [
      {
        toolCalls: [
          { name: "remember", args: { fact: "Alice's Slack token is xoxb-1234567890-abcdefghij" } },
          { name: "remember", args: { fact: "word ".repeat(200) } },
        ],
      },
      "ok",
    ]);
    await agent.prompt("keep these");
    const [secret, long] = toolResultTexts(agent);
    expect(secret).toContain("never keeps secrets");
    expect(secret).not.toContain("xoxb");
    expect(long).toContain("at most 500 characters");
    expect((await store.list(ALICE)).total).toBe(0);
  });

  it("recall and forget act on the caller's scopes only", async () => {
    const { agent, store } = agentWithMemory({ read: [ALICE], write: ALICE }, [
      { toolCalls: [{ name: "recall", args: { query: "birthday party" } }] },
      { toolCalls: [{ name: "forget", args: { target: "party" } }] },
      "done",
    ]);
    const source = { sessionKey: SESSION, at: 0 };
    await store.remember({ scope: ALICE, text: "Alice's birthday party is on May 3", source });
    await store.remember({ scope: BOB, text: "Bob's birthday party is a secret", source });
    await agent.prompt("when is my party? then forget it");
    const [recalled, forgotten] = toolResultTexts(agent);
    expect(recalled).toContain("Alice's birthday party is on May 3");
    expect(recalled).not.toContain("Bob");
    expect(forgotten).toMatch(/^Forgot 1 fact: m[0-9a-f]{12}\.$/);
    expect((await store.list(BOB)).total).toBe(1);
    expect((await store.list(ALICE)).total).toBe(0);
  });

  it("recalled before the first model call, facts reach the model inside the data block", async () => {
    const { agent, streamFn, store } = agentWithMemory({ read: [ALICE], write: ALICE }, ["Porto, then."]);
    await store.remember({ scope: ALICE, text: "Alice lives in Porto", source: { sessionKey: SESSION, at: 0 } });
    const input = "Where do I live?";
    const recalled = await recallFacts(store, [ALICE], input);
    const facts = recalled.kind === "recalled" ? recalled.facts.map((hit) => hit.fact) : [];
    agent.setSystemPrompt(`You are helpful.\n\n${renderRecallBlock(facts)}`);
    await agent.prompt(input);
    const systemPrompt = streamFn.calls[0]?.context.systemPrompt ?? "";
    expect(systemPrompt).toContain(RECALL_BLOCK_OPEN);
    expect(systemPrompt).toContain("Alice lives in Porto");
  });
});
