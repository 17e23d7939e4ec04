import type { StreamContext } from "@chorus/core";
import { autonomyExtension } from "@chorus/extension-autonomy";
import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { EXTRACTION_PROMPT, SqliteMemoryStore } from "@chorus/memory";
import { afterEach, expect, it } from "vitest";
import { memoryExtension } from "../src/index.js";

// Moved from the gateway's every-kind-of-model-call-stops-at-an-exhausted-budget test: memory's extraction pass is a
// session's model call like the others, reserved against its agent's budget before it is made. The turn's call
// reports 800 tokens against a day of 1000, which leaves the budget exhausted for the pass.

const ADMIN = { id: "admin", name: "Admin" };

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model", maxOutputTokens: 256, budgets: { dailyTokens: 1_000 } }],
  channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"], groupPolicy: "open" }],
};

let h: Harness | undefined;
let memory: SqliteMemoryStore | undefined;
afterEach(async () => {
  await h?.close();
  await memory?.close();
  h = undefined;
  memory = undefined;
});

it("memory extraction: the pass after the session goes quiet is not made", async () => {
  memory = new SqliteMemoryStore({ path: ":memory:" });
  const isExtraction = (context: StreamContext) => context.systemPrompt === EXTRACTION_PROMPT;
  h = await startHarness({
    config: CONFIG,
    script: (context) =>
      isExtraction(context) ? '{"facts":[]}' : { text: "ok", usage: { input: 1, output: 799, totalTokens: 800 } },
    gateway: {
      extensions: [
        autonomyExtension(),
        memoryExtension({ store: memory, extraction: { model: "fake-large", idleMs: 10 } }),
      ],
    },
  });
  await h.send({ text: "I moved to Porto last year", sender: ADMIN });
  await new Promise((resolve) => setTimeout(resolve, 100));
  await h.gateway.idle();
  expect(h.streamFn.calls.filter((call) => isExtraction(call.context)).length).toBe(0);
  expect(h.streamFn.calls).toHaveLength(1);
});
