import { randomBytes } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { type AgentTool, formatBytes, type ToolRunInfo } from "@chorus/core";
import type { OutboxFile } from "@chorus/gateway";
import { confineGuestsTo, openWorkspace, readableView, resolveInWorkspace, ToolInputError } from "@chorus/tools";
import { z } from "zod";
import { sniffType } from "../reading/sniff-type.js";

/** Where an agent's files are, for send_file's paths. */
export interface AgentFiles {
  readonly root: string;
  /** Folders a guest may read (send_file confines guests to them as read_file does); empty: none. */
  readonly guestReadFolders: readonly string[];
}

/** What send_file needs from the gateway. */
export interface SendFileDeps {
  /** Where spooled files wait until the outbox sent them. */
  readonly spoolDir: string;
  readonly maxSendBytes: (agentId: string) => number;
  readonly filesOf: (agentId: string) => AgentFiles | undefined;
  /** The largest file the session's chat takes; undefined: it takes none. */
  uploadLimit(sessionKey: string): Promise<number | undefined>;
  sendFiles(sessionKey: string, files: readonly OutboxFile[]): Promise<number | undefined>;
}

const parameters = z.strictObject({
  path: z.string().min(1).optional().describe("A file in your workspace to send, e.g. charts/sales.png"),
  content: z.string().optional().describe("Text to send as a file instead of a path (then give its name)"),
  name: z.string().min(1).max(200).optional().describe("The file's name in the chat, e.g. report.csv"),
  caption: z.string().max(1000).optional().describe("A line shown with the file"),
  asDocument: z.boolean().optional().describe("Send an image as a file rather than as a photo"),
});

const PHOTO_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
const TEXT_TYPES: Record<string, string> = {
  ".csv": "text/csv",
  ".md": "text/markdown",
  ".json": "application/json",
  ".html": "text/html",
  ".txt": "text/plain",
};

/**
 * `send_file`: sends a workspace file, or text the agent wrote, to the chat of the session it runs in — images as
 * photos, anything else as a document — through the outbox (exactly once, like a reply). Its type is sniffed from the
 * bytes. Reading a path follows the read tools' rules (guests only inside their readable folders; in no group but
 * `fs-read`, so the tier policy gates it as a read).
 * Contract: resolves with a line saying what was queued; rejects with ToolInputError for a path outside what the
 * caller may read, a file over the agent's or the platform's limit, or a chat that takes no files.
 */
export function sendFileTool(agentId: string, deps: SendFileDeps): AgentTool<typeof parameters> {
  return {
    name: "send_file",
    description:
      "Send a file to the chat you are in: a file from your workspace (path) or text you write (content and name). " +
      "Images go as photos, everything else as documents. Use it for charts, spreadsheets, PDFs and images you made.",
    parameters,
    category: "edit",
    async execute(args, ctx) {
      const sessionKey = ctx.run.sessionId;
      if (sessionKey === undefined) throw new ToolInputError("send_file works only in a chat's session.");
      const limit = await deps.uploadLimit(sessionKey);
      if (limit === undefined)
        throw new ToolInputError("This chat does not take files; put the content in your answer.");
      const maxBytes = Math.min(limit, deps.maxSendBytes(agentId));
      const file = await fileToSend(agentId, args, ctx.run, maxBytes, deps);
      const mimeType = await typeOf(file.bytes, file.name);
      await mkdir(deps.spoolDir, { recursive: true, mode: 0o700 });
      const path = join(deps.spoolDir, `${Date.now()}-${randomBytes(12).toString("hex")}`);
      await writeFile(path, file.bytes, { mode: 0o600 });
      const queued: OutboxFile = {
        path,
        name: file.name,
        mimeType,
        sizeBytes: file.bytes.byteLength,
        asPhoto: PHOTO_TYPES.has(mimeType) && args.asDocument !== true,
        ...(args.caption === undefined ? {} : { caption: args.caption }),
      };
      const id = await deps.sendFiles(sessionKey, [queued]);
      if (id === undefined) throw new ToolInputError("The file could not be queued for this chat; try again.");
      const what = queued.asPhoto ? "photo" : "file";
      return {
        content: [
          {
            type: "text",
            text: `Sent the ${what} ${file.name} (${mimeType}, ${formatBytes(file.bytes.byteLength)}) to the chat.`,
          },
        ],
      };
    },
  };
}

async function fileToSend(
  agentId: string,
  args: z.infer<typeof parameters>,
  run: ToolRunInfo,
  maxBytes: number,
  deps: SendFileDeps,
): Promise<{ bytes: Uint8Array; name: string }> {
  if ((args.path === undefined) === (args.content === undefined)) {
    throw new ToolInputError("Give either path (a workspace file) or content (text) — exactly one of them.");
  }
  if (args.content !== undefined) {
    if (args.name === undefined)
      throw new ToolInputError("Give the file a name (e.g. report.csv) when you send content.");
    const bytes = new TextEncoder().encode(args.content);
    if (bytes.byteLength > maxBytes) throw tooLarge(bytes.byteLength, maxBytes);
    return { bytes, name: safeName(args.name) };
  }
  const files = deps.filesOf(agentId);
  if (files === undefined) throw new ToolInputError("This agent has no workspace to send files from.");
  const workspace = openWorkspace(files.root);
  const view = await readableView(workspace, confineGuestsTo(files.guestReadFolders)(run), args.path as string);
  const absolute = await resolveInWorkspace(view.workspace, view.path);
  const info = await stat(absolute).catch(() => undefined);
  if (info === undefined || !info.isFile()) throw new ToolInputError(`There is no file at ${args.path}.`);
  if (info.size > maxBytes) throw tooLarge(info.size, maxBytes);
  const bytes = await readFile(absolute);
  return {
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    name: safeName(args.name ?? basename(absolute)),
  };
}

async function typeOf(bytes: Uint8Array, name: string): Promise<string> {
  const sniffed = await sniffType(bytes);
  // Text has no magic number: its kind comes from the name, and only among text types.
  if (sniffed === "text/plain") return TEXT_TYPES[extname(name).toLowerCase()] ?? sniffed;
  return sniffed;
}

function tooLarge(size: number, maxBytes: number): ToolInputError {
  return new ToolInputError(`The file is ${formatBytes(size)}; this chat takes files up to ${formatBytes(maxBytes)}.`);
}

/** A file name without directories or control characters. */
function safeName(name: string): string {
  const printable = [...basename(name)].filter((char) => char.charCodeAt(0) >= 32 && char.charCodeAt(0) !== 127);
  const cleaned = printable.join("").trim();
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "file" : cleaned.slice(0, 200);
}
