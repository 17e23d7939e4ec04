import { describe, expect, it } from "vitest";
import { packageOf } from "../src/side-by-side/cpu-profile-summary.js";
import { ReplyLedger } from "../src/side-by-side/reply-ledger.js";

describe("the side-by-side reply ledger", () => {
  it("counts a placeholder edited into the answer as one reply, at the edit", async () => {
    const ledger = new ReplyLedger();
    const latency = ledger.expect("bench1x", "ok bench1x", 1_000);
    const at = performance.now();
    ledger.observe({ kind: "new", text: "… bench1x", at });
    ledger.observe({ kind: "edit", text: "ok bench1x", at: at + 5 });
    expect(await latency).toBeGreaterThanOrEqual(5);
    expect(ledger.counts()).toEqual({ injected: 1, replies: 1, duplicates: 0, losses: 0, strays: 0 });
  });

  it("counts a second message for the same inbound as a duplicate, a missing one as a loss, others as strays", async () => {
    const ledger = new ReplyLedger();
    const answered = ledger.expect("bench2x", "echo: hello bench2x", 1_000);
    const lost = ledger.expect("bench3x", "echo: hello bench3x", 10);
    ledger.observe({ kind: "new", text: "echo: hello bench2x", at: performance.now() });
    ledger.observe({ kind: "new", text: "echo: hello bench2x", at: performance.now() });
    ledger.observe({ kind: "new", text: "echo: hello bench999x", at: performance.now() });
    expect(await answered).toBeTypeOf("number");
    expect(await lost).toBeUndefined();
    expect(ledger.counts()).toEqual({ injected: 2, replies: 1, duplicates: 1, losses: 1, strays: 1 });
  });

  it("reads MarkdownV2-escaped text as the plain answer", async () => {
    const ledger = new ReplyLedger();
    const latency = ledger.expect("bench4x", "echo: hi. bench4x", 1_000);
    ledger.observe({ kind: "new", text: "echo: hi\\. bench4x", at: performance.now() });
    expect(await latency).toBeTypeOf("number");
  });
});

describe("a CPU profile frame's package", () => {
  it("is the last node_modules package, the workspace package, Node's module or V8's special node", () => {
    expect(packageOf("file:///r/node_modules/.pnpm/openai@7/node_modules/openai/core.mjs", "f")).toBe("openai");
    expect(packageOf("file:///r/node_modules/.pnpm/x/node_modules/@slack/web-api/dist/a.js", "f")).toBe(
      "@slack/web-api",
    );
    expect(packageOf("file:///r/packages/store-sqlite/dist/core.js", "f")).toBe("@chorus/store-sqlite");
    expect(packageOf("file:///r/apps/bot/dist/main.js", "f")).toBe("@chorus/bot");
    expect(packageOf("node:internal/deps/undici/undici", "f")).toBe("node:internal/deps/undici");
    expect(packageOf("node:events", "emit")).toBe("node:events");
    expect(packageOf("", "(garbage collector)")).toBe("(garbage collector)");
    expect(packageOf("", "writev")).toBe("(native)");
  });
});
