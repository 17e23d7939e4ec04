import type { RecordedCall } from "@chorus/testkit";

/** A running echo bot: it answers every inbound text `KEY` with `echo: KEY`. */
export interface EchoBot {
  stop(): Promise<void>;
}

/** One way of running an echo bot against a fake platform: the raw library, or through a Chorus layer. */
export interface EchoSystem<Fake> {
  readonly name: string;
  start(fake: Fake): Promise<EchoBot>;
}

/** What the echo measurement needs from one platform's fake. */
export interface EchoPlatform<Fake> {
  readonly name: string;
  /** How many chats the traffic is spread over. */
  readonly chats: number;
  startFake(): Promise<Fake>;
  closeFake(fake: Fake): Promise<void>;
  /** Injects inbound message `text` into chat number `chat` (0-based, < chats). */
  inject(fake: Fake, chat: number, text: string): Promise<void>;
  /** The fake's log of the send calls echo replies arrive as (a live view). */
  sendCalls(fake: Fake): readonly RecordedCall[];
  /** The message text of one recorded send call. */
  sentText(call: RecordedCall): string;
  /** Resolves once `count` send calls have been recorded. */
  waitForSends(fake: Fake, count: number): Promise<void>;
  readonly systems: ReadonlyArray<EchoSystem<Fake>>;
}

/** Text field of a recorded call's body, whatever the platform named it. */
export function bodyText(call: RecordedCall, field: string): string {
  const body = call.body as Record<string, unknown> | undefined;
  const value = body?.[field];
  return typeof value === "string" ? value : "";
}
