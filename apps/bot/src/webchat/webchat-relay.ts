import type { ServerFrame, WebchatRoom } from "./webchat-protocol.js";

/** A frame one instance of a cluster showed in a chat, for the browsers of that chat connected to the others. */
export interface RelayedFrame {
  readonly room: WebchatRoom;
  /** The browser's public id (DM) or `group`. */
  readonly chatId: string;
  readonly frame: Extract<ServerFrame, { type: "message" | "edit" | "delete" | "typing" | "activity" }>;
}

const RELAYED_TYPES = new Set(["message", "edit", "delete", "typing", "activity"]);

/** The broadcast topic of a WebChat account's frames. */
export function relayTopic(accountId: string): string {
  return `webchat/${accountId}`;
}

/**
 * Reads a relayed frame; undefined for anything else (a newer instance's frame kind, a malformed payload).
 * Contract: pure, never throws.
 */
export function parseRelayedFrame(payload: string): RelayedFrame | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const candidate = value as Partial<RelayedFrame> | null;
  if (candidate === null || typeof candidate !== "object") return undefined;
  if (candidate.room !== "dm" && candidate.room !== "group") return undefined;
  if (typeof candidate.chatId !== "string" || candidate.chatId === "") return undefined;
  const frame = candidate.frame as { type?: unknown } | undefined;
  if (frame === undefined || typeof frame.type !== "string" || !RELAYED_TYPES.has(frame.type)) return undefined;
  return candidate as RelayedFrame;
}
