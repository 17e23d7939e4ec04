import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { SqliteMemoryStore } from "@chorus/memory";
import { afterEach, describe, expect, it } from "vitest";
import { memoryExtension } from "../src/index.js";

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model", systemPrompt: "You are Chorus." }],
  channels: [{ channel: "test", dmPolicy: "open", allowFrom: ["alice"], admins: ["owner"] }],
};
const LINE = "This user prefers short, informal answers; writes in German.";
const alice = { chatType: "dm" as const, sender: { id: "alice" } };
const SHORT_INFORMAL_GERMAN = ["hey, wie geht das?", "ok und was ist mit dir", "hab ne frage: ist das so?"];

let h: Harness;
let memory: SqliteMemoryStore;
afterEach(async () => {
  await h.close();
  await memory.close();
});

async function start(userModel: boolean | undefined): Promise<void> {
  memory = new SqliteMemoryStore({ path: ":memory:" });
  h = await startHarness({
    config: CONFIG,
    script: () => "ok",
    gateway: { extensions: [memoryExtension({ store: memory, ...(userModel === undefined ? {} : { userModel }) })] },
  });
}

function lastSystemPrompt(): string {
  return h.streamFn.calls.at(-1)?.context.systemPrompt ?? "";
}

async function chatShortInformalGerman(): Promise<void> {
  for (const text of SHORT_INFORMAL_GERMAN) await h.send({ ...alice, text });
}

describe("the per-user model (seed 003 steps 1–2) through the gateway", () => {
  it("is off by default: nothing is observed and nothing reaches the system prompt", async () => {
    await start(undefined);
    await chatShortInformalGerman();
    await h.send({ ...alice, text: "und jetzt?" });
    expect(lastSystemPrompt()).not.toContain("This user");
    expect((await memory.userObservations("user:test:alice")).total).toBe(0);
    await h.send({ ...alice, text: "/memory style" });
    expect(h.channel.transcript("dm-alice").at(-1)).toBe("The per-user model is off (`memory.userModel`).");
  });

  it("on: after a few short informal German messages the next request's system prompt carries one line about them", async () => {
    await start(true);
    await h.send({ ...alice, text: SHORT_INFORMAL_GERMAN[0] as string });
    expect(lastSystemPrompt()).toBe("You are Chorus.");
    await chatShortInformalGerman();
    await h.send({ ...alice, text: "und jetzt?" });
    expect(lastSystemPrompt()).toBe(`You are Chorus.\n\n${LINE}`);
    // Observations hold no words of the messages.
    const { observations } = await memory.userObservations("user:test:alice");
    expect(JSON.stringify(observations)).not.toContain("frage");
  });

  it("`/memory style` shows it in the DM and `/memory style clear` forgets it: the next prompt goes without", async () => {
    await start(true);
    await chatShortInformalGerman();
    await h.send({ ...alice, text: "/memory style" });
    expect(h.channel.transcript("dm-alice").at(-1)).toMatch(new RegExp(`^${LINE} _\\(from your last 3 messages;`));

    await h.send({ ...alice, text: "/memory style clear" });
    expect(h.channel.transcript("dm-alice").at(-1)).toBe("Forgot 3 notes about how you write.");
    await h.send({ ...alice, text: "Good evening. Could you please explain how the export works?" });
    expect(lastSystemPrompt()).toBe("You are Chorus.");
  });

  it("`/memory off` stops it in the session: nothing observed, no line", async () => {
    await start(true);
    await chatShortInformalGerman();
    await h.send({ ...alice, text: "/memory off" });
    await h.send({ ...alice, text: "was geht" });
    expect(lastSystemPrompt()).toBe("You are Chorus.");
    expect((await memory.userObservations("user:test:alice")).total).toBe(3);
  });
});
