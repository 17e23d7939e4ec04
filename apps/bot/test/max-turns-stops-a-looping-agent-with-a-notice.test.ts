import { afterEach, describe, expect, it } from "vitest";
import { type LoopSettingsGateway, loopSettingsGateway } from "./support/loop-settings-gateway.js";

let h: LoopSettingsGateway | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** An agent that never stops calling a tool. */
const LOOPING = () => ({ toolCalls: [{ name: "current_time" }] });

describe("maxTurns from chorus.config.yaml (seed 003's runaway guard)", () => {
  it("stops an agent that keeps calling tools after maxTurns model calls, and tells the chat why", async () => {
    h = await loopSettingsGateway({ maxTurns: 3 }, LOOPING);
    await h.send({ text: "what time is it?", sender: { id: "admin" } });
    expect(h.streamFn.calls).toHaveLength(3);
    expect(h.channel.transcript("dm-admin").at(-1)).toBe("I stopped because this task took too many steps.");
  }, 20_000);

  it("lets another agent's turn run longer with a higher maxTurns", async () => {
    h = await loopSettingsGateway({ maxTurns: 7 }, LOOPING);
    await h.send({ text: "what time is it?", sender: { id: "admin" } });
    expect(h.streamFn.calls).toHaveLength(7);
    expect(h.channel.transcript("dm-admin").at(-1)).toBe("I stopped because this task took too many steps.");
  }, 20_000);
});
