import { Bot } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { CallWaitError, type FakeTelegram, startFakeSlack, startFakeTelegram } from "../src/platforms/index.js";

let fake: FakeTelegram | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("fake platform call log and fault input", () => {
  it("keeps at most callLogLimit calls, and the per-method view follows", async () => {
    fake = await startFakeTelegram({ callLogLimit: 4 });
    const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    for (let i = 0; i < 9; i++) await bot.api.getMe();
    await bot.api.getMyCommands();

    expect(fake.calls.length).toBeLessThanOrEqual(4);
    expect(fake.calls.at(-1)?.method).toBe("getMyCommands");
    expect(fake.callsTo("getMe").length).toBe(fake.calls.length - 1);
  });

  it("rejects bad fault specs and bad options with typed errors", async () => {
    fake = await startFakeTelegram();
    expect(() => fake!.failNext({ method: "sendMessage", status: 200 })).toThrow(RangeError);
    expect(() => fake!.failNext({ method: "sendMessage", status: 429, times: 0 })).toThrow(RangeError);
    await expect(startFakeTelegram({ bots: [{ token: "no-colon" }] })).rejects.toThrow(TypeError);
    await expect(startFakeSlack({ mode: "carrier-pigeon" as "http" })).rejects.toThrow(TypeError);
  });

  it("waitFor rejects with CallWaitError when the fake closes first", async () => {
    fake = await startFakeTelegram();
    const waiting = fake.waitForCall("sendMessage", 1, 10_000);
    await fake.close();
    fake = undefined;
    await expect(waiting).rejects.toBeInstanceOf(CallWaitError);
  });
});
