import { join } from "node:path";
import type { AttachmentSource } from "@chorus/core";
import { type ExtensionStartContext, type GatewayExtension, parseSessionKey } from "@chorus/gateway";
import { AttachmentCache } from "../cache/attachment-cache.js";
import { ByteBudget } from "../cache/byte-budget.js";
import { agentMedia, type MediaConfig, mediaConfigSchema } from "../config/media-config.js";
import type { AttachmentProblem } from "../reading/resolve-attachments.js";
import { resolveAttachments } from "../reading/resolve-attachments.js";
import { type AgentFiles, sendFileTool } from "../sending/send-file-tool.js";
import { removeStaleSpool } from "../sending/spool-cleanup.js";
import { mediaStreamFn } from "./media-stream-fn.js";

/** How the media extension is set up. */
export interface MediaExtensionOptions {
  /** `media:` of chorus.config.yaml (validated here; defaults when absent). */
  readonly config?: unknown;
  /** Its own directory: the cache of downloaded files (`cache/`) and files waiting to be sent (`outgoing/`). */
  readonly dir: string;
  /** An agent's workspace, for send_file's paths; undefined: it sends only text the agent writes. */
  filesOf?(agentId: string): AgentFiles | undefined;
}

/** The media extension, and what the bench reads of it. */
export interface MediaExtension extends GatewayExtension {
  /** Attachment bytes held now and at most so far (the memory cap's accounting). */
  readonly memory: { readonly held: number; readonly peak: number; readonly cap: number };
  readonly config: MediaConfig;
}

/**
 * Media in the gateway: the photos, documents and voice notes people send reach the model (read at the session's
 * owner when a turn needs them, cached by content hash, re-fetched when the cache lost them), each problem is told in
 * the chat once, and `send_file` sends files back through the outbox.
 * Contract: throws a ZodError for an invalid `config`; nothing is written inside an agent's workspace.
 * @example new Gateway({ ...options, extensions: [mediaExtension({ dir: "./data/media", config: { limits: { maxFileBytes: 10_000_000 } } })] })
 */
export function mediaExtension(options: MediaExtensionOptions): MediaExtension {
  const config = mediaConfigSchema.parse(options.config ?? {});
  const cache = new AttachmentCache(join(options.dir, "cache"), config.cacheMaxBytes);
  const budget = new ByteBudget(config.maxBytesInMemory);
  const spoolDir = join(options.dir, "outgoing");
  let context: ExtensionStartContext | undefined;
  const told = new Set<string>();

  const fetch = (source: AttachmentSource, fetchOptions: { maxBytes: number }) => {
    if (context === undefined) throw new Error("the media extension has not started");
    return context.fetchAttachment(source, fetchOptions);
  };
  const tell = (sessionKey: string, problems: readonly AttachmentProblem[]) => {
    const started = context;
    if (started === undefined) return;
    started.track(
      (async () => {
        for (const problem of problems) {
          const key = `${sessionKey}:${problem.key}`;
          if (told.has(key) || (await cache.told(key))) continue;
          told.add(key);
          await started.chats.post(sessionKey, problem.sentence);
          await cache.rememberTold(key);
        }
      })(),
    );
  };

  return {
    name: "media",
    config,
    get memory() {
      return { held: budget.held, peak: budget.peak, cap: config.maxBytesInMemory };
    },
    start(started) {
      context = started;
      started.track(removeStaleSpool(spoolDir, started.now()));
    },
    wrapStreamFn(next) {
      return mediaStreamFn(next, {
        mediaOf: (sessionKey) => {
          const parsed = parseSessionKey(sessionKey);
          return parsed.ok ? agentMedia(config, parsed.key.agentId) : undefined;
        },
        resolve: (callContext, model, media) =>
          resolveAttachments(callContext.messages, model, media, { cache, budget, fetch }),
        tell,
      });
    },
    toolsFor(agentId) {
      return [
        sendFileTool(agentId, {
          spoolDir,
          maxSendBytes: (id) => agentMedia(config, id).limits.maxSendBytes,
          filesOf: (id) => options.filesOf?.(id),
          uploadLimit: async (sessionKey) => context?.chats.maxUploadBytes(sessionKey),
          sendFiles: async (sessionKey, files) => context?.chats.sendFiles(sessionKey, files),
        }),
      ];
    },
  };
}
