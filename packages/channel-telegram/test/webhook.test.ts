import { ChannelOptionsError } from "@chorus/gateway";
import { InboundCollector } from "@chorus/gateway-testing";
import { startFakeTelegram, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

describe("Telegram channel in webhook mode", () => {
  it("receives updates carrying the secret token and refuses those without it", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const channel = cleanup.track(
      createTelegramChannel({
        accountId: "tg-hook",
        token: fake.token,
        apiRoot: fake.apiRoot,
        mode: "webhook",
        webhook: { secretToken: "s3cret-token" },
      }),
    );
    const inbox = new InboundCollector();
    await channel.start(inbox.sink);
    expect(fake.callsTo("setWebhook").at(-1)?.body).toMatchObject({
      url: channel.webhookUrl,
      secret_token: "s3cret-token",
    });

    const good = await fake.injectDm({ text: "via webhook" });
    expect(good).toMatchObject({ ok: true, status: 200 });
    expect(await inbox.byText("via webhook")).toMatchObject({ chatType: "dm", accountId: "tg-hook" });

    // Someone re-points the webhook with another secret: Telegram now sends that one, and the channel refuses it.
    const response = await fetch(`${fake.apiRoot}/bot${fake.token}/setWebhook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: channel.webhookUrl, secret_token: "forged-secret" }),
    });
    expect(response.ok).toBe(true);
    const forged = await fake.injectDm({ text: "forged update" });
    expect(forged).toMatchObject({ ok: false, status: 401 });
    expect(inbox.messages.map((m) => m.text)).toEqual(["via webhook"]);
  });

  it("refuses webhook mode without a usable secret token, before connecting", () => {
    expect(() => createTelegramChannel({ accountId: "a", token: "1:x", mode: "webhook" })).toThrow(ChannelOptionsError);
    expect(() =>
      createTelegramChannel({ accountId: "a", token: "1:x", mode: "webhook", webhook: { secretToken: "has spaces" } }),
    ).toThrow(/secretToken/);
    expect(() => createTelegramChannel({ accountId: "a", token: "" })).toThrow(/"token" is required/);
  });
});
