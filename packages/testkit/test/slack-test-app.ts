import type { App } from "@slack/bolt";

/** The fields of a Slack message event the echo reads. */
interface PlainMessage {
  channel_type?: string;
  subtype?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
}

/** Makes a Bolt app answer each person's DM (not bot or edit subtypes) in its thread with "dm echo: <text>". */
export function echoDmsInThread(app: App): void {
  app.message(async ({ message, say }) => {
    const m = message as PlainMessage;
    if (m.channel_type !== "im" || m.subtype !== undefined) return;
    await say({ text: `dm echo: ${m.text}`, thread_ts: m.thread_ts ?? m.ts });
  });
}
