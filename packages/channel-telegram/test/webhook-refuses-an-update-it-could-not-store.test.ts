import { MessageNotStoredError, SessionStoreError } from "@chorus/gateway";
import { InboundCollector } from "@chorus/gateway-testing";
import { startFakeTelegram, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;

/** A webhook-mode channel on the fake, closed after the test. */
function webhookChannel(fake: FakeTelegram, onError?: (error: unknown) => void) {
  return cleanup.track(
    createTelegramChannel({
      accountId: "tg-hook",
      token: fake.token,
      apiRoot: fake.apiRoot,
      mode: "webhook",
      webhook: { secretToken: "s3cret-token" },
      ...(onError === undefined ? {} : { onError }),
    }),
  );
}

describe("Telegram webhook while the database is away", () => {
  it("answers 503 to an update the gateway could not store (Telegram delivers it again), 200 once it is stored", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const channel = webhookChannel(fake);
    const inbox = new InboundCollector();
    let databaseAway = true;
    await channel.start(async (message) => {
      if (databaseAway) throw new MessageNotStoredError(new SessionStoreError("io", "connection refused"));
      await inbox.sink(message);
    });

    expect(await fake.injectDm({ text: "during the cut" })).toMatchObject({ ok: false, status: 503 });
    databaseAway = false;
    expect(await fake.injectDm({ text: "after the cut" })).toMatchObject({ ok: true, status: 200 });
    expect(await inbox.byText("after the cut")).toMatchObject({ platformRedelivers: true });
  });

  it("acknowledges an update whose handling failed for another reason (nothing a redelivery would change)", async () => {
    const fake = cleanup.track(await startFakeTelegram());
    const errors: unknown[] = [];
    const channel = webhookChannel(fake, (error) => errors.push(error));
    await channel.start(async () => {
      throw new Error("a bug in a handler");
    });
    expect(await fake.injectDm({ text: "hello" })).toMatchObject({ ok: true, status: 200 });
    expect(errors).toHaveLength(1);
  });
});
