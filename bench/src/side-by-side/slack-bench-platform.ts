import { type FakeSlack, startFakeSlack } from "@chorus/testkit";
import { type BenchPlatform, recordedText, tapCalls } from "./bench-platform.js";
import type { OutboundMessage } from "./reply-ledger.js";

const KIND: Record<string, OutboundMessage["kind"]> = { "chat.postMessage": "new", "chat.update": "edit" };

/** The fake Slack in HTTP mode (signed Events API requests to the app's Request URL). */
export interface SlackBenchPlatform extends BenchPlatform {
  readonly name: "slack";
  readonly fake: FakeSlack;
}

/** Starts a fake Slack in HTTP mode whose DM chats are with users U1000000 + chat number. */
export async function startSlackBenchPlatform(): Promise<SlackBenchPlatform> {
  const fake = await startFakeSlack({ mode: "http", callLogLimit: 20_000 });
  let listener: ((message: OutboundMessage) => void) | undefined;
  tapCalls(fake.waitFor, (call) => {
    const kind = KIND[call.method];
    if (kind !== undefined) listener?.({ kind, text: recordedText(call), at: performance.now() });
  });
  return {
    name: "slack",
    label: "Slack",
    fake,
    inject: async (chat, text) => {
      const user = { id: `U${1_000_000 + chat}`, name: `user${chat}`, isBot: false };
      const delivery = await fake.injectDm({ text, user });
      if (!delivery.ok) throw new Error(`Slack event delivery failed: ${delivery.reason}`);
    },
    onOutbound: (next) => {
      listener = next;
    },
    close: () => fake.close(),
  };
}
