import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallLog } from "../shared/call-log.js";
import { imageDimensions } from "../shared/image-dimensions.js";
import { extensionOf, mimeTypeOfName } from "../shared/mime-by-name.js";
import { parseMultipart } from "../shared/multipart-body.js";
import { stringField } from "../shared/request-body.js";
import type { SlackFile } from "./slack-files.js";
import type { SlackMessage } from "./slack-types.js";
import type { SlackSentFile, SlackUploads } from "./slack-uploads.js";
import { botOnly, fail, resolveChannel, type WebApiContext, type WebApiMethod } from "./web-api-methods.js";

/** Where the fake takes the bytes of an upload: `/upload/v1/<key>` (Slack's are on files.slack.com). */
export const UPLOAD_PATH = "/upload/v1/";

type FileObject = SlackFile & Record<string, unknown>;

const getUploadUrl: WebApiMethod = (ctx) => {
  const filename = stringField(ctx.params, "filename");
  const length = Number(stringField(ctx.params, "length"));
  if (filename === undefined || filename === "" || !Number.isSafeInteger(length) || length < 0) {
    return fail("invalid_arguments");
  }
  const upload = ctx.world.uploads.issue(ctx.account, filename, length);
  return { ok: true, upload_url: `${ctx.origin()}${UPLOAD_PATH}${upload.key}`, file_id: upload.fileId };
};

/** The `files` argument: a JSON array of `{ id, title }` (a string in a form body). */
function fileEntries(value: unknown): { id: string; title?: string }[] | undefined {
  let list = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list)) return undefined;
  const entries = list.map((entry) => entry as { id?: unknown; title?: unknown });
  if (entries.some((entry) => typeof entry?.id !== "string")) return undefined;
  return entries.map((entry) => ({
    id: entry.id as string,
    ...(typeof entry.title === "string" ? { title: entry.title } : {}),
  }));
}

function fileObject(ctx: WebApiContext, fileId: string, name: string, title: string, bytes: Uint8Array): FileObject {
  const image = imageDimensions(bytes);
  const mimetype = image?.mimeType ?? mimeTypeOfName(name);
  const stored = ctx.world.files.add({ bytes, name, mimetype }, ctx.origin(), ctx.world.teamId, fileId);
  const now = Math.floor(Date.now() / 1000);
  return {
    ...stored,
    filetype: extensionOf(name) ?? "binary",
    pretty_type: (extensionOf(name) ?? "binary").toUpperCase(),
    title,
    created: now,
    timestamp: now,
    user: ctx.account.userId,
    user_team: ctx.world.teamId,
    mode: "hosted",
    is_external: false,
    is_public: false,
    display_as_bot: false,
    permalink: `https://fake-team.slack.com/files/${ctx.account.userId}/${fileId}/${encodeURIComponent(name)}`,
    channels: [],
    groups: [],
    ims: [],
    comments_count: 0,
    shares: {},
    ...(image === undefined ? {} : { original_w: image.width, original_h: image.height }),
  };
}

/** Shares completed files in a channel: their message, and each file's `shares` and channel lists. */
function share(
  ctx: WebApiContext,
  files: FileObject[],
  channel: string,
  threadTs: string | undefined,
  comment: string | undefined,
): void {
  const { world, account } = ctx;
  const conversation = world.conversations.get(channel);
  const ts = world.ts.next();
  const message: SlackMessage = {
    type: "message",
    subtype: "file_share",
    channel,
    ts,
    text: comment ?? "",
    user: account.userId,
    bot_id: account.botId,
    app_id: account.appId,
    team: world.teamId,
    upload: true,
    display_as_bot: false,
    files,
  };
  if (threadTs !== undefined) {
    message.thread_ts = threadTs;
    const parent = world.messages.get(channel, threadTs);
    if (parent?.user !== undefined) message.parent_user_id = parent.user;
  }
  world.store(message);
  const scope = conversation?.isIm ? "private" : "public";
  for (const file of files) {
    const entry: Record<string, unknown> = {
      ts,
      channel_name: conversation?.name ?? channel,
      team_id: world.teamId,
      share_user_id: account.userId,
      source: "UNKNOWN",
      is_silent_share: false,
      reply_users: [],
      reply_users_count: 0,
      reply_count: 0,
    };
    if (threadTs !== undefined) entry.thread_ts = threadTs;
    file.shares = { [scope]: { [channel]: [entry] } };
    file[conversation?.isIm ? "ims" : "channels"] = [channel];
    const sent = world.uploads.get(file.id);
    if (sent !== undefined) world.uploads.record({ ...sent, ts });
  }
}

const completeUpload: WebApiMethod = (ctx) => {
  const { params, world } = ctx;
  const entries = fileEntries(params.files);
  if (entries === undefined || entries.length === 0) return fail("invalid_arguments");
  const channelKey = stringField(params, "channel_id") === undefined ? "channels" : "channel_id";
  const asked = stringField(params, channelKey);
  if (asked?.includes(",")) return fail("invalid_arguments");
  const channel = asked === undefined ? undefined : resolveChannel(ctx, channelKey);
  if (asked !== undefined && channel === undefined) return fail("channel_not_found");
  const uploads = entries.map((entry) => world.uploads.ready(ctx.account, entry.id));
  if (uploads.some((upload) => upload === undefined)) return fail("file_not_found");
  const threadTs = stringField(params, "thread_ts");
  const comment = stringField(params, "initial_comment");
  const files = entries.map((entry, index) => {
    const upload = uploads[index] as NonNullable<(typeof uploads)[number]>;
    world.uploads.finish(upload.fileId);
    const file = fileObject(ctx, upload.fileId, upload.filename, entry.title ?? upload.filename, upload.bytes);
    const sent: SlackSentFile = {
      fileId: upload.fileId,
      name: upload.filename,
      title: file.title as string,
      bytes: upload.bytes,
      file,
      ...(channel === undefined ? {} : { channel }),
      ...(threadTs === undefined ? {} : { threadTs }),
      ...(comment === undefined ? {} : { initialComment: comment }),
    };
    world.uploads.record(sent);
    return file;
  });
  // Slack shares the files asynchronously: with a delay, this answer leaves before the message exists.
  if (channel !== undefined) world.uploads.later(() => share(ctx, files, channel, threadTs, comment));
  return { ok: true, files };
};

const fileInfo: WebApiMethod = (ctx) => {
  const sent = ctx.world.uploads.get(stringField(ctx.params, "file") ?? "");
  if (sent === undefined) return fail("file_not_found");
  return { ok: true, file: sent.file, comments: [], response_metadata: { next_cursor: "" } };
};

/** The Web API methods of `files.uploadV2` (and `files.info` to see a file's shares), by name. */
export const slackFileMethods: Readonly<Record<string, WebApiMethod>> = {
  "files.getUploadURLExternal": botOnly(getUploadUrl),
  "files.completeUploadExternal": botOnly(completeUpload),
  "files.info": botOnly(fileInfo),
};

/**
 * Takes a POST to an upload URL: the body raw, or the file part of a multipart form (the WebClient's), answered
 * `200 OK - <bytes>` as Slack does; 404 for a URL not issued or already completed. Recorded as an `upload_url` call.
 */
export function receiveUpload(
  uploads: SlackUploads,
  log: CallLog,
  req: IncomingMessage,
  res: ServerResponse,
  raw: Buffer,
): void {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const multipart = parseMultipart(req.headers["content-type"], raw);
  const part = multipart?.files[0];
  const bytes = new Uint8Array(part?.data ?? raw);
  const accepted = uploads.receive(path.slice(UPLOAD_PATH.length), bytes);
  const status = accepted ? 200 : 404;
  log.record({
    method: "upload_url",
    httpMethod: req.method ?? "POST",
    path: UPLOAD_PATH,
    params: {},
    body: { length: bytes.byteLength, ...(part?.filename === undefined ? {} : { filename: part.filename }) },
    botId: undefined,
    status,
    at: Date.now(),
  });
  const text = accepted ? `OK - ${bytes.byteLength}` : "Not Found";
  res.writeHead(status, { "content-type": "text/plain", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}
