import { z } from "zod";
import { FILE_ID } from "./webchat-file-store.js";

/** The two rooms a browser sees: its own DM with the bot, and the group shared by every browser. */
export type WebchatRoom = "dm" | "group";

/** The chat id of the shared room. */
export const GROUP_CHAT_ID = "group";

/** A file shown with a message: one a browser attached, or one the bot sent (then with its download link). */
export interface WebchatFile {
  readonly id: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly sizeBytes?: number;
  /** Where the page downloads it (this server); absent for a file only named (a browser's upload). */
  readonly url?: string;
  /** Shown inline as an image too. */
  readonly image?: boolean;
}

/** A chat message as the page shows it. */
export interface WebchatMessage {
  readonly id: string;
  readonly room: WebchatRoom;
  readonly role: "user" | "bot";
  readonly text: string;
  readonly senderName: string;
  /** The sending browser's public id, for user messages the server knows it of (the page marks its own). */
  readonly senderId?: string;
  readonly at: number;
  /** Files the message carries; `text` is then their caption (possibly empty). */
  readonly files?: readonly WebchatFile[];
}

/** Live activity of a run: tool calls and sub-agents, shown as they happen. */
export interface WebchatActivity {
  readonly kind: "run_started" | "run_ended" | "tool_start" | "tool_end" | "subagent_spawned" | "subagent_completed";
  readonly runId: string;
  readonly depth: number;
  readonly label: string;
  readonly ok?: boolean;
}

/** Frames the server sends. */
export type ServerFrame =
  | {
      readonly type: "hello";
      /** This browser's public id (never its credential). */
      readonly publicId: string;
      readonly name: string;
      /** Whether this connection is an admin (a browser on this machine, with `localAdmin`). */
      readonly admin: boolean;
      /** This browser's own DM and the group room, oldest first. */
      readonly history: readonly WebchatMessage[];
      /** The largest file the page may upload (POST /upload), in bytes. */
      readonly maxUploadBytes?: number;
    }
  | { readonly type: "message"; readonly message: WebchatMessage }
  | { readonly type: "edit"; readonly room: WebchatRoom; readonly id: string; readonly text: string }
  | { readonly type: "delete"; readonly room: WebchatRoom; readonly id: string }
  | { readonly type: "typing"; readonly room: WebchatRoom }
  | { readonly type: "activity"; readonly room: WebchatRoom; readonly activity: WebchatActivity }
  | { readonly type: "error"; readonly message: string };

/** The most files one message carries. */
export const MAX_ATTACHMENTS = 10;

/**
 * Frames the page sends. A `send` carries text, the ids of files it uploaded before (POST /upload), or both.
 */
export const clientFrameSchema = z.discriminatedUnion("type", [
  z
    .object({
      type: z.literal("send"),
      room: z.enum(["dm", "group"]),
      text: z.string().max(8000),
      attachments: z.array(z.string().regex(FILE_ID)).max(MAX_ATTACHMENTS).optional(),
    })
    .refine((frame) => frame.text !== "" || (frame.attachments?.length ?? 0) > 0, {
      message: "a message needs text or a file",
    }),
]);

/** A frame the page sent, validated. */
export type ClientFrame = z.output<typeof clientFrameSchema>;
