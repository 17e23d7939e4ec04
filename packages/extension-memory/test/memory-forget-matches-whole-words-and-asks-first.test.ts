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
const ALICE = "user:test:alice";

const script = toolCallScript("forget", "forget", "target");

let h: Harness;
let memory: SqliteMemoryStore;
afterEach(async () => {
  await h.close();
  await memory.close();
});

async function start(facts: readonly string[]): Promise<void> {
  memory = new SqliteMemoryStore({ path: ":memory:" });
  for (const [i, text] of facts.entries()) {
    await memory.remember({ scope: ALICE, text, source: { sessionKey: "s", at: i + 1 } });
  }
  h = await startHarness({ config: CONFIG, script, gateway: { extensions: [memoryExtension({ store: memory })] } });
}

const kept = async () => (await memory.export(ALICE)).facts.map((fact) => fact.text).sort();
const lastAnswer = () => h.channel.transcript("dm-alice").at(-1) ?? "";
const alice = (text: string) => h.send({ chatType: "dm", text, sender: { id: "alice" } });

describe("/memory forget", () => {
  it("matches whole words: `forget cat` leaves 'scattering seeds', `forget s` forgets nothing", async () => {
    await start(["Alice feeds the cat at seven", "Alice is scattering seeds", "Alice's sister lives in Porto"]);
    await alice("/memory forget s");
    expect(lastAnswer()).toContain("Nothing remembered here matches");
    await alice("/memory forget cat");
    expect(lastAnswer()).toContain("Forgot 1 fact");
    expect(await kept()).toEqual(["Alice is scattering seeds", "Alice's sister lives in Porto"]);
  });

  it("asks first when more than three facts would go: a button, or the same command typed with confirm", async () => {
    await start([
      "Alice likes green tea",
      "Alice drinks tea at five",
      "Alice's tea is from Assam",
      "Alice brews tea in a clay pot",
      "Alice has a teapot collection",
    ]);
    await alice("/memory forget tea");
    expect(lastAnswer()).toContain("“tea” matches 4 facts here");
    expect(lastAnswer()).toContain("/memory forget tea confirm");
    expect(await kept()).toHaveLength(5);
    const asked = h.channel.calls.filter((call) => call.op === "send").at(-1);
    const button = asked?.op === "send" ? asked.outbound.buttons?.[0] : undefined;
    expect(button).toEqual({ id: "/memory forget tea confirm", label: "Forget all 4" });

    // The button sends its command (typed, it is the same message).
    await alice(button?.id ?? "");
    expect(lastAnswer()).toContain("Forgot 4 facts");
    expect(await kept()).toEqual(["Alice has a teapot collection"]);
  });

  it("gives the model's forget tool the same word matching", async () => {
    await start(["Alice feeds the cat at seven", "Alice is scattering seeds"]);
    await alice("forget: cat");
    expect(lastAnswer()).toContain("tool said:");
    expect(await kept()).toEqual(["Alice is scattering seeds"]);
  });
});
