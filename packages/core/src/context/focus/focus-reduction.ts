import type { AgentMessage } from "../../messages/message-types.js";
import { isSystemReminder } from "../../reminders/system-reminder-message.js";
import { stripOrphanedToolResults } from "../orphaned-tool-results.js";
import type { FocusSegment } from "./focus-state.js";
import { focusKnowledgeId, focusKnowledgeMessage, focusKnowledgeText } from "./knowledge-message.js";

/** A reduced transcript, and the segments found nowhere in the input (a summarising compaction covered them). */
export interface FocusReduction {
  /** The reduced transcript, or undefined when it is already reduced (nothing to change). */
  readonly messages: AgentMessage[] | undefined;
  readonly absent: ReadonlySet<number>;
}

interface Edit {
  from: number;
  to: number; // inclusive
  with: AgentMessage[];
}

/**
 * Replaces each closed segment's raw messages — from the assistant message holding its `start_focus` call to the
 * results following the one holding its `complete_focus` call — by one knowledge message, and keeps the knowledge
 * messages already in place in line with the segments (rewritten after a merge, removed once merged away).
 *
 * Why whole messages, and results up to the next non-result: a tool call and its results go or stay together, so no
 * request ever carries a result without its call or a call without its result (Anthropic answers 400, OpenAI 422). The
 * person's own words inside a segment (a steering message, a later turn's prompt) are kept, before the knowledge;
 * system reminders inside it go with the raw messages. Orphaned results are stripped after all, as after every hard
 * compaction (seed 002), in case a transcript was repaired oddly.
 * Contract: pure; the input is not changed; idempotent (a reduced transcript reduces to `messages: undefined`).
 */
export function reduceFocusSegments(
  messages: readonly AgentMessage[],
  segments: readonly FocusSegment[],
): FocusReduction {
  if (segments.length === 0) return { messages: undefined, absent: new Set() };
  const wanted = new Set<string>();
  for (const s of segments) wanted.add(s.startCallId).add(s.endCallId);
  const callAt = new Map<string, number>();
  const knowledgeAt = new Map<number, number>();
  messages.forEach((m, index) => {
    const role = (m as { role?: string }).role;
    if (role === "assistant") {
      for (const block of (m as { content: { type: string; id?: string }[] }).content) {
        if (block.type === "toolCall" && block.id !== undefined && wanted.has(block.id)) callAt.set(block.id, index);
      }
    } else if (role === "user") {
      const id = focusKnowledgeId(m);
      if (id !== undefined) knowledgeAt.set(id, index);
    }
  });
  const edits: Edit[] = [];
  const absent = new Set<number>();
  for (const segment of segments) {
    const end = callAt.get(segment.endCallId);
    const placed = knowledgeAt.get(segment.id);
    if (end !== undefined) {
      let to = end;
      while ((messages[to + 1] as { role?: string } | undefined)?.role === "toolResult") to++;
      const start = Math.min(callAt.get(segment.startCallId) ?? end, end);
      const kept = messages.slice(start + 1, to + 1).filter(isPersonsWords);
      const stamp = (messages[end] as { timestamp?: number }).timestamp ?? 0;
      const knowledge = segment.mergedInto === undefined ? [focusKnowledgeMessage(segment, stamp)] : [];
      edits.push({ from: start, to, with: [...kept, ...knowledge] });
      if (placed !== undefined && (placed < start || placed > to)) edits.push({ from: placed, to: placed, with: [] });
    } else if (placed !== undefined) {
      const current = messages[placed] as AgentMessage;
      if (segment.mergedInto !== undefined) edits.push({ from: placed, to: placed, with: [] });
      else if ((current as { content: string }).content !== focusKnowledgeText(segment)) {
        const stamp = (current as { timestamp?: number }).timestamp ?? 0;
        edits.push({ from: placed, to: placed, with: [focusKnowledgeMessage(segment, stamp)] });
      }
    } else {
      absent.add(segment.id);
    }
  }
  if (edits.length === 0) return { messages: undefined, absent };
  return { messages: stripOrphanedToolResults(applyEdits(messages, edits)), absent };
}

/** A user message that is the person's (not a focus knowledge message, not a system reminder). */
function isPersonsWords(message: AgentMessage): boolean {
  const m = message as { role?: string };
  return m.role === "user" && focusKnowledgeId(message) === undefined && !isSystemReminder(message);
}

/** Applies non-overlapping edits (an edit overlapping an earlier-starting one is dropped). */
function applyEdits(messages: readonly AgentMessage[], edits: Edit[]): AgentMessage[] {
  edits.sort((a, b) => a.from - b.from);
  const out: AgentMessage[] = [];
  let next = 0;
  for (const edit of edits) {
    if (edit.from < next) continue;
    for (let i = next; i < edit.from; i++) out.push(messages[i] as AgentMessage);
    out.push(...edit.with);
    next = edit.to + 1;
  }
  for (let i = next; i < messages.length; i++) out.push(messages[i] as AgentMessage);
  return out;
}
