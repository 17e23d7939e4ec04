import type { SendTarget } from "./channel-types.js";

/** Where a session's replies go: its channel account and the chat (and thread) in it. */
export interface SessionChat {
  readonly channel: string;
  readonly accountId: string;
  readonly target: SendTarget;
}
