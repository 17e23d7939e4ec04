import { afterEach, expect, it } from "vitest";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it("/agents heads the fleet with today's spend, labelled, once no run is in progress", async () => {
  // Each answer reports 1 input and 100 output tokens: $0.000201 at the fake model's prices.
  h = await startHarness({ script: () => ({ text: "ok", usage: { input: 1, output: 100, totalTokens: 101 } }) });
  await h.send({ text: "hello", sender: { id: "admin", name: "Admin" } });
  await h.send({ text: "again", sender: { id: "admin", name: "Admin" } });
  await h.send({ text: "/agents", sender: { id: "admin", name: "Admin" } });
  const header = h.channel.transcript("dm-admin").at(-1)?.split("\n")[0];
  expect(header).toContain("0 running run(s) (0 tokens · $0.0000 so far) · today: 202 tokens · $0.0004");
});
