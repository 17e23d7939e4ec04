import type { AgentMessage, Model, StreamFn } from "@chorus/core";
import {
  assistantText,
  describeError,
  type GatewayLogger,
  type SessionStore,
  type TranscriptEntry,
  type TrustTier,
  userInputText,
} from "@chorus/gateway";
import { type ExtractionMessage, extractFacts, type MemoryStore, type NewFact } from "@chorus/memory";
import type { SessionMemoryScopes } from "./session-memory-scopes.js";

/** `GatewayMemoryOptions.extraction`: the end-of-session pass. */
export interface MemoryExtractionOptions {
  /** The (cheap) model of the pass, by id as the gateway's `models` know it. */
  readonly model: string;
  /** How long a session stays quiet before its pass runs. Default 300 000 ms. */
  readonly idleMs?: number;
  /** At most this many facts per pass. Default 10. */
  readonly maxFacts?: number;
}

/** Default quiet time before a session's extraction pass. */
export const DEFAULT_EXTRACTION_IDLE_MS = 300_000;

/** What the extraction pass needs of the gateway. */
export interface SessionExtractionDeps {
  readonly options: MemoryExtractionOptions;
  readonly store: SessionStore;
  readonly memory: MemoryStore;
  readonly streamFn: StreamFn;
  findModel(id: string): Model | undefined;
  /** Where the session's facts go (the chat's scope at a tier that may write; no `write`: nothing is kept). */
  scopesOf(sessionKey: string, tier: TrustTier): SessionMemoryScopes;
  /** Whether memory is on for the session (`/memory off`). */
  enabled(sessionKey: string): Promise<boolean>;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
  readonly logger: GatewayLogger;
  readonly now: () => number;
}

/**
 * The end-of-session extraction pass: once a session has been quiet for `idleMs` (or right before `/new` starts it
 * afresh), a cheap model reads the session's messages since its last pass and proposes durable facts, each kept with
 * the transcript seqs of the user messages that state it (`source.messageId`, comma-separated). Off the critical
 * path: it runs in the background and never delays a reply. What a pass may read is decided per message, from the
 * mark stored with it (`TranscriptEntry.memory`): what a trusted person or the owner said while memory was on, and
 * the replies to only such words; how far passes have read is stored with the session (`memoryExtractedSeq`). So a
 * restart or a takeover neither widens nor repeats a pass. Contract: never throws; failures are logged.
 */
export class SessionExtraction {
  readonly #deps: SessionExtractionDeps;
  /** Sessions waiting to go quiet, with their timers. */
  readonly #pending = new Map<string, ReturnType<typeof setTimeout>>();
  /** Aborts the model calls under way at shutdown. */
  readonly #abort = new AbortController();
  #stopped = false;

  constructor(deps: SessionExtractionDeps) {
    this.#deps = deps;
  }

  /** A turn of the session ended (its messages are committed): the pass runs once the session stays quiet. */
  turnEnded(sessionKey: string): void {
    if (this.#stopped) return;
    const waiting = this.#pending.get(sessionKey);
    if (waiting !== undefined) clearTimeout(waiting);
    const timer = setTimeout(() => this.#run(sessionKey), this.#deps.options.idleMs ?? DEFAULT_EXTRACTION_IDLE_MS);
    timer.unref?.();
    this.#pending.set(sessionKey, timer);
  }

  /**
   * The session is about to start afresh (`/new`): reads its messages now, before they leave the transcript, and
   * runs the pass on them in the background. Contract: resolves once they are read; never rejects.
   */
  async sessionEnding(sessionKey: string): Promise<void> {
    if (!this.#take(sessionKey) || this.#stopped) return;
    try {
      const entries = await this.#read(sessionKey);
      this.#deps.track(this.#extract(sessionKey, entries));
    } catch (error) {
      this.#deps.logger.warn({ sessionKey, error: describeError(error) }, "memory extraction failed");
    }
  }

  /** Stops every waiting pass (gateway shutdown) and aborts the model calls under way (they propose nothing). */
  stop(): void {
    this.#stopped = true;
    this.#abort.abort();
    for (const timer of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }

  /** Whether a pass was waiting for the session (it no longer is). */
  #take(sessionKey: string): boolean {
    const timer = this.#pending.get(sessionKey);
    if (timer === undefined) return false;
    clearTimeout(timer);
    this.#pending.delete(sessionKey);
    return true;
  }

  #run(sessionKey: string): void {
    if (!this.#take(sessionKey)) return;
    const work = this.#read(sessionKey)
      .then((entries) => this.#extract(sessionKey, entries))
      .catch((error: unknown) => {
        this.#deps.logger.warn({ sessionKey, error: describeError(error) }, "memory extraction failed");
      });
    this.#deps.track(work);
  }

  async #extract(sessionKey: string, entries: readonly TranscriptEntry[]): Promise<void> {
    const lastSeq = entries.at(-1)?.seq;
    if (lastSeq === undefined) return;
    // The next pass of this session starts after what this one read (whatever it finds), also after a restart.
    await this.#deps.store.updateSession(sessionKey, { memoryExtractedSeq: lastSeq });
    const readable = readableEntries(entries);
    if (!readable.some((entry) => entry.message.role === "user")) return;
    const scope = this.#deps.scopesOf(sessionKey, "trusted").write;
    if (scope === undefined || !(await this.#deps.enabled(sessionKey))) return;
    const { options } = this.#deps;
    const model = this.#deps.findModel(options.model);
    if (model === undefined) {
      this.#deps.logger.warn({ sessionKey, model: options.model }, "memory extraction model is unknown");
      return;
    }
    const messages = readable.flatMap((entry) => extractionMessage(entry));
    const proposals = await extractFacts(messages, {
      streamFn: this.#deps.streamFn,
      model,
      // The session's call (kind `memory`): reserved against its agent's budgets, capped and booked like its turns.
      streamOptions: { signal: this.#abort.signal, sessionId: sessionKey, purpose: "memory" },
      ...(options.maxFacts === undefined ? {} : { maxFacts: options.maxFacts }),
    });
    if (this.#abort.signal.aborted) return;
    const at = this.#deps.now();
    for (const proposal of proposals) {
      const fact: NewFact = {
        scope,
        text: proposal.text,
        ...(proposal.subject === undefined ? {} : { subject: proposal.subject }),
        source: { sessionKey, messageId: proposal.sourceMessageIds.join(","), at },
      };
      await this.#deps.memory.remember(fact);
    }
  }

  /** The session's messages after what earlier passes read (from its transcript start). */
  async #read(sessionKey: string): Promise<TranscriptEntry[]> {
    const session = await this.#deps.store.getSession(sessionKey);
    if (session === undefined) return [];
    const fromSeq = Math.max(session.transcriptStartSeq, (session.memoryExtractedSeq ?? 0) + 1);
    return this.#deps.store.readTranscript(sessionKey, { fromSeq });
  }
}

/** Marks whose words may become memory: said by a trusted person or the owner while memory was on. */
function mayRemember(entry: TranscriptEntry): boolean {
  return entry.memory === "owner" || entry.memory === "trusted";
}

/**
 * The entries a pass may read: user messages whose mark allows it, and assistant messages answering only such
 * messages (the user messages right before them, all of them allowed) — a reply may repeat a guest's words.
 */
export function readableEntries(entries: readonly TranscriptEntry[]): TranscriptEntry[] {
  const readable: TranscriptEntry[] = [];
  let lastRole: "user" | "assistant" | undefined;
  let blockAllowed = false;
  for (const entry of entries) {
    const role = (entry.message as { role?: string }).role;
    if (role === "user") {
      blockAllowed = (lastRole === "user" ? blockAllowed : true) && mayRemember(entry);
      lastRole = "user";
      if (mayRemember(entry)) readable.push(entry);
    } else if (role === "assistant") {
      lastRole = "assistant";
      if (blockAllowed) readable.push(entry);
    }
  }
  return readable;
}

function extractionMessage(entry: TranscriptEntry): ExtractionMessage[] {
  const message = entry.message as AgentMessage & { role?: string };
  if (message.role === "user") {
    const text = userInputText([message]);
    return text === "" ? [] : [{ id: String(entry.seq), role: "user", text }];
  }
  if (message.role === "assistant") {
    const text = assistantText(message);
    return text === "" ? [] : [{ id: String(entry.seq), role: "assistant", text }];
  }
  return [];
}
