import type { OutboundFile } from "@chorus/channel";
import { ChannelError } from "@chorus/channel";
import type { App } from "@slack/bolt";

type WebClient = App["client"];

/** Slack's limit on one uploaded file: 1 GB. */
export const SLACK_MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

/**
 * Pauses between `files.info` looks for the message that carries an upload: Slack shares a completed upload with its
 * channel asynchronously, and the completion's answer often has no `shares` yet. About 3 s in all.
 */
const SHARE_LOOKS_MS = [250, 500, 1000, 1250] as const;

/** Where a file was shared: per `public` / `private`, per channel, the share's message. */
type Shares = Record<string, Record<string, ReadonlyArray<{ ts?: unknown }> | undefined> | undefined>;

interface UploadedFile {
  id?: unknown;
  shares?: Shares;
}

/** Waits `ms`; a test may pass its own. */
export type Pause = (ms: number) => Promise<void>;
const pause: Pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Uploads `file` to a conversation through `files.uploadV2` (getUploadURLExternal, the bytes to the upload URL,
 * completeUploadExternal), the caption as its `initial_comment`, in the thread `threadTs` when given.
 * Contract: resolves with the `ts` of the message that carries the file — from the completion's `shares`, else from
 * `files.info` looked at for about 3 s — or, when Slack has not shared it by then (or `files.info` is not allowed),
 * `file:<file id>`; a file over SLACK_MAX_UPLOAD_BYTES is refused with ChannelError "too-long" before any request;
 * Web API failures reject as the WebClient threw them.
 */
export async function uploadSlackFile(
  client: WebClient,
  channel: string,
  threadTs: string | undefined,
  file: OutboundFile,
  wait: Pause = pause,
): Promise<string> {
  if (file.bytes.byteLength > SLACK_MAX_UPLOAD_BYTES) {
    throw new ChannelError(
      "too-long",
      `slack sendFile: ${file.name} is ${file.bytes.byteLength} bytes, over Slack's ${SLACK_MAX_UPLOAD_BYTES}`,
    );
  }
  const caption = file.caption === undefined || file.caption === "" ? undefined : plainText(file.caption);
  const args = {
    channel_id: channel,
    // The WebClient takes binary contents as a Buffer only.
    file: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
    filename: file.name,
    ...(caption === undefined ? {} : { initial_comment: caption }),
    ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
  } as Parameters<WebClient["files"]["uploadV2"]>[0];
  const result = (await client.files.uploadV2(args)) as { files?: { files?: UploadedFile[] }[] };
  const uploaded = result.files?.[0]?.files?.[0];
  const fileId = typeof uploaded?.id === "string" ? uploaded.id : "";
  if (fileId === "")
    throw new ChannelError("unknown", `slack sendFile: Slack answered the upload of ${file.name} with no file`);
  const shared = shareTs(uploaded?.shares, channel);
  if (shared !== undefined) return shared;
  for (const ms of SHARE_LOOKS_MS) {
    await wait(ms);
    const info = (await client.files.info({ file: fileId }).catch(() => undefined)) as
      | { file?: UploadedFile }
      | undefined;
    // Without `files:read` the app cannot look; the file is up, only its message's ts is unknown.
    if (info === undefined) break;
    const ts = shareTs(info.file?.shares, channel);
    if (ts !== undefined) return ts;
  }
  return `file:${fileId}`;
}

function shareTs(shares: Shares | undefined, channel: string): string | undefined {
  for (const scope of ["public", "private"]) {
    const ts = shares?.[scope]?.[channel]?.[0]?.ts;
    if (typeof ts === "string") return ts;
  }
  return undefined;
}

/** Slack's escaping for text shown as written: `&`, `<` and `>` (which would start a link or mention). */
function plainText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
