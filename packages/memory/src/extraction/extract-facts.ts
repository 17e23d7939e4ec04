import type { Model, StreamFn, StreamOptions } from "@chorus/core";
import { looksLikeSecret, MAX_FACT_CHARS } from "../facts/check-fact-text.js";

/** One message of a finished session, as the extraction pass reads it. */
export interface ExtractionMessage {
  /** The message's id (platform message id or transcript seq): the source of facts drawn from it. */
  readonly id: string;
  readonly role: "user" | "assistant";
  readonly text: string;
}

/** A fact the extraction pass proposes, with the ids of the user messages that state it. */
export interface ProposedFact {
  readonly text: string;
  readonly subject?: string;
  readonly sourceMessageIds: readonly string[];
}

/** How the extraction pass calls its (cheap) model. */
export interface ExtractFactsOptions {
  readonly streamFn: StreamFn;
  readonly model: Model;
  /** At most this many facts (default 10). */
  readonly maxFacts?: number;
  readonly streamOptions?: StreamOptions;
}

/** What the extraction model is told. */
export const EXTRACTION_PROMPT = [
  "You extract durable facts about the user from a finished conversation, for a long-term memory.",
  "Keep only stable facts the user stated about themselves or their life (preferences, names, plans, places),",
  "never secrets, passwords, keys or tokens, never anything the assistant said unless the user confirmed it.",
  'Answer with JSON only: {"facts":[{"text":"one short sentence","subject":"what it is about","sources":["<message id>"]}]}',
  'Use the message ids shown as [id]. Answer {"facts":[]} when there is nothing worth keeping.',
].join(" ");

/**
 * Asks a model which durable facts a finished session holds. Contract: never rejects; resolves with the proposals
 * that survive checking — at most `maxFacts`, each citing at least one user message of the session, within the size
 * cap and holding no secret; a model error or an answer that is not the expected JSON gives none.
 * Meant to run off the turn's critical path (after a session goes idle), never before a reply.
 */
export async function extractFacts(
  messages: readonly ExtractionMessage[],
  options: ExtractFactsOptions,
): Promise<ProposedFact[]> {
  const userIds = new Set(messages.filter((m) => m.role === "user").map((m) => m.id));
  if (userIds.size === 0) return [];
  const transcript = messages.map((m) => `[${m.id}] ${m.role}: ${m.text.replace(/\s+/g, " ").trim()}`).join("\n");
  const reply = await options
    .streamFn(
      options.model,
      {
        systemPrompt: EXTRACTION_PROMPT,
        messages: [{ role: "user", content: transcript, timestamp: Date.now() }],
      },
      options.streamOptions,
    )
    .result()
    .catch(() => undefined);
  if (reply === undefined || reply.stopReason === "error" || reply.stopReason === "aborted") return [];
  const text = reply.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  return parseProposals(text, userIds, options.maxFacts ?? 10);
}

function parseProposals(answer: string, userIds: ReadonlySet<string>, maxFacts: number): ProposedFact[] {
  const json = /\{[\s\S]*\}/.exec(answer)?.[0];
  if (json === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const facts = (parsed as { facts?: unknown }).facts;
  if (!Array.isArray(facts)) return [];
  const out: ProposedFact[] = [];
  for (const item of facts as { text?: unknown; subject?: unknown; sources?: unknown }[]) {
    if (typeof item?.text !== "string") continue;
    const text = item.text.trim();
    if (text === "" || text.length > MAX_FACT_CHARS || looksLikeSecret(text)) continue;
    const sources = Array.isArray(item.sources) ? item.sources.map(String).filter((id) => userIds.has(id)) : [];
    if (sources.length === 0) continue; // a fact nobody stated is the model's invention
    const subject = typeof item.subject === "string" && item.subject.trim() !== "" ? item.subject.trim() : undefined;
    out.push({ text, ...(subject === undefined ? {} : { subject }), sourceMessageIds: sources });
    if (out.length >= maxFacts) break;
  }
  return out;
}
