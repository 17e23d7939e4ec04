import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { SqliteMemoryStore } from "@chorus/memory";
import { afterEach, describe, expect, it } from "vitest";
import { memoryExtension } from "../src/index.js";

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", dmPolicy: "open", allowFrom: ["alice"], admins: ["owner"] }],
};
const MEMORY_TOOLS = ["remember", "forget", "recall"];

let h: Harness;
let memory: SqliteMemoryStore;
afterEach(async () => {
  await h.close();
  await memory.close();
});

/** The tool names offered to the model in its latest call. */
function offeredTools(): string[] {
  return (h.streamFn.calls.at(-1)?.context.tools ?? []).map((tool) => tool.name);
}

describe("/memory off in a session", () => {
  it("offers the model no remember, forget or recall there until /memory on", async () => {
    memory = new SqliteMemoryStore({ path: ":memory:" });
    h = await startHarness({
      config: CONFIG,
      script: () => "ok",
      gateway: { extensions: [memoryExtension({ store: memory })] },
    });
    await h.send({ chatType: "dm", text: "hello", sender: { id: "alice" } });
    expect(offeredTools()).toEqual(expect.arrayContaining(MEMORY_TOOLS));

    await h.send({ chatType: "dm", text: "/memory off", sender: { id: "alice" } });
    await h.send({ chatType: "dm", text: "I'd rather you forgot this", sender: { id: "alice" } });
    const whileOff = offeredTools();
    for (const name of MEMORY_TOOLS) expect(whileOff).not.toContain(name);

    await h.send({ chatType: "dm", text: "/memory on", sender: { id: "alice" } });
    await h.send({ chatType: "dm", text: "hello again", sender: { id: "alice" } });
    expect(offeredTools()).toEqual(expect.arrayContaining(MEMORY_TOOLS));
  });
});
