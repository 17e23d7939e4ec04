import { autonomyExtension } from "@chorus/extension-autonomy";
import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { utcDay } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { titlesExtension } from "../src/index.js";
import { isTitleCall, titleScript } from "./fixtures/title-script.js";

// The title call carries the session's key and purpose `title`: a budget (autonomy's, given first) reserves it against
// the session's agent before it is made and books what it used under `title`.

const ADMIN = { id: "admin", name: "Admin" };
const KEY = "main:main:test:dm:admin";

function config(dailyTokens: number): GatewayConfigInput {
  return {
    agents: [{ id: "main", model: "fake-model", maxOutputTokens: 256, budgets: { dailyTokens } }],
    channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"], groupPolicy: "open" }],
  };
}

const used = (totalTokens: number) => ({ input: 1, output: totalTokens - 1, totalTokens });

describe("the title call in the budgets", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function start(dailyTokens: number, turnTokens: number) {
    h = await startHarness({
      config: config(dailyTokens),
      script: titleScript({ text: "Trip to Lisbon", usage: used(30) }, { text: "Sure!", usage: used(turnTokens) }),
      gateway: { extensions: [autonomyExtension(), titlesExtension({ model: "fake-large" })] },
    });
    return h;
  }

  async function spentByKind(h: Harness): Promise<Record<string, number>> {
    const rows = await h.store.listSpend({ kind: "purpose", fromPeriod: utcDay(Date.now()), toPeriod: "9999" });
    return Object.fromEntries(rows.map((row) => [row.subject, row.tokens]));
  }

  it("is booked under `title` against the session's agent", async () => {
    const h = await start(100_000, 100);
    await h.send({ text: "plan a trip to Lisbon", sender: ADMIN });
    expect((await h.store.getSession(KEY))?.title).toBe("Trip to Lisbon");
    expect(await spentByKind(h)).toMatchObject({ "main:turn": 100, "main:title": 30 });
  });

  it("is not made once the first turn exhausted the agent's budget: the text title stays", async () => {
    const h = await start(1_000, 995);
    await h.send({ text: "plan a trip to Lisbon", sender: ADMIN });
    expect(h.channel.transcript("dm-admin")).toEqual(["Sure!"]);
    expect(h.streamFn.calls.filter((call) => isTitleCall(call.context))).toHaveLength(0);
    expect((await h.store.getSession(KEY))?.title).toBe("plan a trip to Lisbon");
  });
});
