import type { ScriptedTurn } from "@chorus/core/testing";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { titlesExtension } from "../src/index.js";
import { isTitleCall, titleScript } from "./fixtures/title-script.js";

const ADMIN = { id: "admin", name: "Admin" };
const KEY = "main:main:test:dm:admin";
const FIRST_LINE = "help me plan 3 days in Lisbon";

describe("a title model that fails or hangs", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function start(title: ScriptedTurn, timeoutMs?: number) {
    h = await startHarness({
      script: titleScript(title),
      gateway: {
        extensions: [titlesExtension({ model: "fake-large", ...(timeoutMs === undefined ? {} : { timeoutMs }) })],
      },
    });
    return h;
  }

  it("hangs: the reply is sent while the title call is still running; past the timeout the text title stays", async () => {
    const h = await start({ fault: "hang" }, 1_500);
    const startedAt = Date.now();
    await h.channel.inject({ text: `${FIRST_LINE}\nwith kids`, sender: ADMIN });
    await vi.waitFor(() => expect(h.channel.transcript("dm-admin")).toEqual(["Sure!"]), { timeout: 2_000 });
    await vi.waitFor(() => expect(h.streamFn.calls.some((call) => isTitleCall(call.context))).toBe(true));
    const titleCall = h.streamFn.calls.find((call) => isTitleCall(call.context));
    expect(titleCall?.options?.signal?.aborted).toBe(false); // the reply did not wait for it
    await h.gateway.idle();
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_400);
    expect(titleCall?.options?.signal?.aborted).toBe(true);
    expect((await h.store.getSession(KEY))?.title).toBe(FIRST_LINE);
  });

  it("throws: the reply is sent and the text title stays", async () => {
    const h = await start({ fault: "throw", message: "title model down" });
    await h.send({ text: FIRST_LINE, sender: ADMIN });
    expect(h.channel.transcript("dm-admin")).toEqual(["Sure!"]);
    expect(h.streamFn.calls.filter((call) => isTitleCall(call.context))).toHaveLength(1);
    expect((await h.store.getSession(KEY))?.title).toBe(FIRST_LINE);
  });

  it("answers with an error: the text title stays", async () => {
    const h = await start({ fault: "error", error: { kind: "overloaded", message: "busy" } });
    await h.send({ text: FIRST_LINE, sender: ADMIN });
    expect(h.channel.transcript("dm-admin")).toEqual(["Sure!"]);
    expect((await h.store.getSession(KEY))?.title).toBe(FIRST_LINE);
  });
});
