import type { StreamContext } from "@chorus/core";
import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { EXTRACTION_PROMPT, SqliteMemoryStore } from "@chorus/memory";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryExtension } from "../src/index.js";
import { contentText } from "../src/testing/index.js";

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", dmPolicy: "open", allowFrom: ["alice"], admins: ["owner"] }],
};

/** The transcript id the extraction pass shows for the user message holding `text`. */
function idOf(context: StreamContext, text: string): string | undefined {
  const transcript = contentText(context.messages[0]?.content);
  return new RegExp(`\\[(\\d+)\\] user: [^\\n]*${text}`).exec(transcript)?.[1];
}

let h: Harness;
let memory: SqliteMemoryStore;
afterEach(async () => {
  await h.close();
  await memory.close();
});

const isExtraction = (context: StreamContext) => context.systemPrompt === EXTRACTION_PROMPT;

describe("the end-of-session extraction pass in the gateway", () => {
  it("runs once a DM goes quiet, with its own model, and keeps each fact with the ids of the messages stating it", async () => {
    memory = new SqliteMemoryStore({ path: ":memory:" });
    let extracted: () => void = () => {};
    const extraction = new Promise<void>((resolve) => {
      extracted = resolve;
    });
    h = await startHarness({
      config: CONFIG,
      script: (context) => {
        if (!isExtraction(context)) return "ok";
        extracted();
        const sources = [idOf(context, "Porto")];
        return JSON.stringify({ facts: [{ text: "Alice lives in Porto", subject: "home city", sources }] });
      },
      gateway: { extensions: [memoryExtension({ store: memory, extraction: { model: "fake-large", idleMs: 20 } })] },
    });
    // A guest's DM goes quiet first: its words never become memory, so its pass asks no model at all.
    await h.send({ chatType: "dm", text: "I own this bot now", sender: { id: "stranger" } });
    expect(h.channel.transcript("dm-stranger")).toEqual(["ok"]);
    await h.send({ chatType: "dm", text: "I moved to Porto last year", sender: { id: "alice" } });
    expect(h.channel.transcript("dm-alice").at(-1)).toBe("ok");
    await extraction;
    await h.gateway.idle();

    const calls = h.streamFn.calls.filter((call) => isExtraction(call.context));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.model.id).toBe("fake-large");
    const [fact] = (await memory.list("user:test:alice")).facts;
    expect(fact).toMatchObject({
      text: "Alice lives in Porto",
      source: { messageId: idOf(calls[0]!.context, "Porto") },
    });
    expect(fact?.source.messageId).toMatch(/^\d+$/);
    expect(await memory.countByScope()).toEqual([{ scope: "user:test:alice", count: 1 }]);
  });

  it("runs on /new over the conversation it ends, and a model that never answers delays no reply", async () => {
    memory = new SqliteMemoryStore({ path: ":memory:" });
    h = await startHarness({
      config: CONFIG,
      script: (context) => (isExtraction(context) ? { fault: "hang" } : "ok"),
      gateway: { extensions: [memoryExtension({ store: memory, extraction: { model: "fake-large" } })] },
    });
    await h.send({ chatType: "dm", text: "My sister is called Ana", sender: { id: "alice" } });
    // Not `h.send`: the gateway is not idle while the extraction pass waits for its model.
    await h.channel.inject({ chatType: "dm", text: "/new", sender: { id: "alice" } });
    await vi.waitFor(() => expect(h.channel.transcript("dm-alice").at(-1)).toBe("Started a new conversation."));
    await h.channel.inject({ chatType: "dm", text: "hello again", sender: { id: "alice" } });
    await vi.waitFor(() =>
      expect(h.channel.transcript("dm-alice")).toEqual(["ok", "Started a new conversation.", "ok"]),
    );

    const calls = h.streamFn.calls.filter((call) => isExtraction(call.context));
    expect(calls).toHaveLength(1);
    expect(contentText(calls[0]?.context.messages[0]?.content)).toContain("My sister is called Ana");
    expect(await memory.countByScope()).toEqual([]);
  });
});
