import { type FakeTelegram, startFakeTelegram } from "@chorus/testkit";
import { type BenchPlatform, recordedText, tapCalls } from "./bench-platform.js";
import type { OutboundMessage } from "./reply-ledger.js";

const FIRST_USER_ID = 60_000;
const KIND: Record<string, OutboundMessage["kind"]> = { sendMessage: "new", editMessageText: "edit" };

/** The fake Telegram plus what a bot in webhook mode needs to know. */
export interface TelegramBenchPlatform extends BenchPlatform {
  readonly name: "telegram";
  readonly fake: FakeTelegram;
  /** Points the fake's webhook at `url` (what `setWebhook` does; Chorus calls it itself). */
  setWebhook(url: string, secretToken: string): Promise<void>;
}

/** Starts a fake Telegram whose private chats are users 60 000 + chat number. */
export async function startTelegramBenchPlatform(): Promise<TelegramBenchPlatform> {
  const fake = await startFakeTelegram({ callLogLimit: 20_000 });
  let listener: ((message: OutboundMessage) => void) | undefined;
  tapCalls(fake.waitFor, (call) => {
    const kind = KIND[call.method];
    if (kind !== undefined) listener?.({ kind, text: recordedText(call), at: performance.now() });
  });
  return {
    name: "telegram",
    label: "Telegram",
    fake,
    inject: async (chat, text) => {
      const id = FIRST_USER_ID + chat;
      const delivery = await fake.injectDm({ text, from: { id, is_bot: false, first_name: `User ${chat}` } });
      if (!delivery.ok) throw new Error(`Telegram webhook delivery failed: ${delivery.reason}`);
    },
    onOutbound: (next) => {
      listener = next;
    },
    setWebhook: async (url, secretToken) => {
      const response = await fetch(`${fake.apiRoot}/bot${fake.token}/setWebhook`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url, secret_token: secretToken }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`setWebhook on the fake Telegram answered ${response.status}`);
    },
    close: () => fake.close(),
  };
}
