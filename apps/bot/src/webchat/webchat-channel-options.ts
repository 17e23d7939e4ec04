import type { IncomingMessage, ServerResponse } from "node:http";
import type { ChannelCapabilities, InstanceBroadcast } from "@chorus/gateway";
import type { ReadinessReport } from "./webchat-http.js";
import type { WebchatMessage } from "./webchat-protocol.js";

/** The largest file a browser uploads by default: 20 MB. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

/** Options of a WebChat account. */
export interface WebchatChannelOptions {
  readonly accountId: string;
  /** Default 127.0.0.1. Any host but 127.0.0.1, ::1 and localhost needs `accessToken`. */
  readonly host?: string;
  /** Default 8787; 0 picks a free port (tests). */
  readonly port?: number;
  /** Browsers connecting from this machine (TCP peer 127.0.0.1 or ::1) are admins (owner tier). Default true. */
  readonly localAdmin?: boolean;
  /** The token a browser must give once (the page asks for it); required off loopback. */
  readonly accessToken?: string;
  /** Host names the page answers to when not bound to loopback; default the bind host. */
  readonly allowedHosts?: readonly string[];
  /** The server key file (`<dataDir>/webchat.key`), created on first start. */
  readonly keyFile: string;
  /**
   * Where uploaded and sent files are kept (0700, files 0600); default `webchat/uploads` beside `keyFile`, i.e.
   * `<dataDir>/webchat/uploads`, outside every agent workspace. In a cluster each instance keeps its own.
   */
  readonly filesDir?: string;
  /** The largest file a browser may upload, in bytes; default 20 MB. */
  readonly maxAttachmentBytes?: number;
  /**
   * Told, before the message reaches the sink, that an inbound message (by event id) comes from an admin
   * connection, so the gateway's policy treats that one message as the owner's.
   */
  readonly onAdminMessage?: (eventId: string) => void;
  /** A browser's stored conversation (its DM and the group), for the page's history; default none. */
  readonly storedHistory?: (publicId: string) => Promise<readonly WebchatMessage[]>;
  /** Told when the stored history cannot be read (the page then shows what this process has). */
  readonly onError?: (error: unknown) => void;
  /**
   * In a cluster: the other instances. Every frame this channel shows (a reply, an edit, a user's message, activity)
   * is published to them and theirs are shown here, so a browser connected to this instance sees the replies of a
   * session another instance owns. Default none (one process).
   */
  readonly relay?: InstanceBroadcast;
  /**
   * In a cluster: the key every instance uses, given this one's own (`keyFile`), so a browser is the same person on
   * any instance. Default: the own key.
   */
  readonly sharedKey?: (own: Buffer) => Promise<Buffer>;
  /** Answers GET /readyz; default ready once listening. */
  readonly readiness?: () => ReadinessReport;
  /** Serves GET /metrics (Prometheus text); default none (404). */
  readonly metrics?: (request: IncomingMessage, response: ServerResponse) => void;
  /** The bearer token scrapers on other machines send for GET /metrics; default none (this machine only). */
  readonly metricsToken?: string;
  readonly now?: () => number;
}

/** WebChat renders Markdown itself, so it takes long messages and edits freely. */
export const WEBCHAT_CAPABILITIES: ChannelCapabilities = {
  maxMessageLength: 16_000,
  edit: true,
  delete: true,
  typing: true,
  threads: false,
  reactions: false,
  buttons: false,
  markup: "markdown",
  editRate: { edits: 20, perMs: 1000 },
  maxUploadBytes: 50 * 1024 * 1024,
};
