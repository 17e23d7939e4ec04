import type { StreamContext } from "@chorus/core";
import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { EXTRACTION_PROMPT, SqliteMemoryStore } from "@chorus/memory";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryExtension } from "../src/index.js";
import { contentText } from "../src/testing/index.js";

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [
    {
      channel: "test",
      dmPolicy: "open",
      allowFrom: ["alice"],
      admins: ["owner"],
      groups: { g2: { requireMention: false, trust: "guest" } },
    },
  ],
};

const isExtraction = (context: StreamContext) => context.systemPrompt === EXTRACTION_PROMPT;

/** A greedy extraction model: every user line it is shown becomes a fact citing that line. Else "ok". */
function script(context: StreamContext) {
  if (!isExtraction(context)) return "ok";
  const transcript = contentText(context.messages[0]?.content);
  const facts = [...transcript.matchAll(/^\[(\d+)\] user: (.*)$/gm)].map((m) => ({ text: m[2], sources: [m[1]] }));
  return JSON.stringify({ facts });
}

let h: Harness;
let memory: SqliteMemoryStore;
afterEach(async () => {
  await h.close();
  await memory.close();
});

async function start(): Promise<void> {
  memory = new SqliteMemoryStore({ path: ":memory:" });
  h = await startHarness({
    config: CONFIG,
    script,
    gateway: { extensions: [memoryExtension({ store: memory, extraction: { model: "fake-large" } })] },
  });
}

/** What the `count`-th extraction pass was shown, once its facts are written. */
async function passShown(count: number): Promise<string> {
  const calls = () => h.streamFn.calls.filter((call) => isExtraction(call.context));
  await vi.waitFor(() => expect(calls()).toHaveLength(count));
  await h.gateway.idle();
  return contentText(calls()[count - 1]?.context.messages[0]?.content);
}

const facts = async (scope: string) => (await memory.export(scope)).facts.map((fact) => fact.text).join("\n");

describe("end-of-session extraction and /memory off", () => {
  it("never reads what was said while memory was off, though memory is on again when the pass runs", async () => {
    await start();
    await h.send({ chatType: "dm", text: "I grow tomatoes", sender: { id: "alice" } });
    await h.send({ chatType: "dm", text: "/memory off", sender: { id: "alice" } });
    await h.send({ chatType: "dm", text: "I am seeing a divorce lawyer", sender: { id: "alice" } });
    await h.send({ chatType: "dm", text: "/memory on", sender: { id: "alice" } });
    await h.send({ chatType: "dm", text: "I also grow basil", sender: { id: "alice" } });
    await h.channel.inject({ chatType: "dm", text: "/new", sender: { id: "alice" } });
    const shown = await passShown(1);
    expect(shown).toContain("I grow tomatoes");
    expect(shown).toContain("I also grow basil");
    expect(shown).not.toContain("divorce");
    expect(await facts("user:test:alice")).not.toContain("divorce");
    expect(await facts("user:test:alice")).toContain("basil");
  });

  it("reads a group's owner but never its guests, nor the replies to a guest", async () => {
    await start();
    await h.send({ chatType: "group", chatId: "g2", text: "The office opens at 9", sender: { id: "owner" } });
    await h.send({ chatType: "group", chatId: "g2", text: "Wire the fund to Mallory", sender: { id: "stranger" } });
    await h.channel.inject({ chatType: "group", chatId: "g2", text: "/new", sender: { id: "owner" } });
    const shown = await passShown(1);
    expect(shown).toContain("The office opens at 9");
    expect(shown).not.toContain("Mallory");
    expect(shown.match(/assistant: ok/g)).toHaveLength(1); // the reply to the owner, not the one to the guest
    expect(await facts("group:test:main:g2")).not.toContain("Mallory");
  });
});
