import type { Usage } from "@chorus/core";
import type { QueueMode } from "../queue-mode.js";
import type { NewSession, RunRecord, RunSpawn, RunStatus, SessionRecord, StoredJson } from "../store-types.js";

/** The optional fields of a session, as stored: absent when unset. */
export interface SessionOptionals {
  title?: string | null | undefined;
  modelOverride?: string | null | undefined;
  queueModeOverride?: QueueMode | null | undefined;
}

/** Builds a session record, leaving out unset optional fields. Contract: the same inputs give deep-equal records in every store. */
export function buildSessionRecord(
  base: Pick<NewSession, "key" | "agentId" | "channel" | "accountId" | "chatId">,
  optionals: SessionOptionals,
  rest: {
    settings: Readonly<Record<string, StoredJson>>;
    createdAt: number;
    updatedAt: number;
    lastSeq: number;
    transcriptStartSeq: number;
    memoryExtractedSeq?: number | undefined;
  },
): SessionRecord {
  return {
    key: base.key,
    agentId: base.agentId,
    channel: base.channel,
    accountId: base.accountId,
    chatId: base.chatId,
    ...(optionals.title != null ? { title: optionals.title } : {}),
    ...(optionals.modelOverride != null ? { modelOverride: optionals.modelOverride } : {}),
    ...(optionals.queueModeOverride != null ? { queueModeOverride: optionals.queueModeOverride } : {}),
    settings: rest.settings,
    createdAt: rest.createdAt,
    updatedAt: rest.updatedAt,
    lastSeq: rest.lastSeq,
    transcriptStartSeq: rest.transcriptStartSeq,
    ...(rest.memoryExtractedSeq !== undefined && rest.memoryExtractedSeq > 0
      ? { memoryExtractedSeq: rest.memoryExtractedSeq }
      : {}),
  };
}

/** Builds a run record, leaving out unset optional fields. Contract: the same inputs give deep-equal records in every store. */
export function buildRunRecord(fields: {
  id: string;
  sessionKey: string;
  parentRunId?: string | null | undefined;
  depth: number;
  agentId: string;
  status: RunStatus;
  startedAt: number;
  endedAt?: number | null | undefined;
  usage: Usage;
  error?: string | null | undefined;
  traceparent?: string | null | undefined;
  spawn?: RunSpawn | null | undefined;
}): RunRecord {
  return {
    id: fields.id,
    sessionKey: fields.sessionKey,
    ...(fields.parentRunId != null ? { parentRunId: fields.parentRunId } : {}),
    depth: fields.depth,
    agentId: fields.agentId,
    status: fields.status,
    startedAt: fields.startedAt,
    ...(fields.endedAt != null ? { endedAt: fields.endedAt } : {}),
    usage: fields.usage,
    ...(fields.error != null ? { error: fields.error } : {}),
    ...(fields.traceparent != null ? { traceparent: fields.traceparent } : {}),
    ...(fields.spawn != null ? { spawn: fields.spawn } : {}),
  };
}

/** Resolves a patch field against the current value. Contract: `null` clears, `undefined` keeps, anything else replaces. */
export function patched<T>(current: T | undefined, change: T | null | undefined): T | undefined {
  if (change === undefined) return current;
  return change === null ? undefined : change;
}
