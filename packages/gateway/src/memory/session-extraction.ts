import type { AgentMessage, Model, StreamFn } from "@chorus/core";
import { type ExtractionMessage, extractFacts, type MemoryStore, type NewFact } from "@chorus/memory";
import { describeError, type GatewayLogger } from "../gateway/gateway-logger.js";
import { lowerTier } from "../lanes/lane-item.js";
import type { TrustTier } from "../policy/trust-tier.js";
import { assistantText } from "../reply-manager/assistant-text.js";
import type { SessionStore } from "../store/session-store.js";
import type { TranscriptEntry } from "../store/store-types.js";
import type { SessionMemoryScopes } from "./session-memory-scopes.js";
import { userInputText } from "./user-input-text.js";

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
  /** Where the session's facts go, for the lowest tier of the turns the pass covers (no `write`: nothing is kept). */
  scopesOf(sessionKey: string, tier: TrustTier): SessionMemoryScopes;
  /** Whether memory is on for the session (`/memory off`). */
  enabled(sessionKey: string): Promise<boolean>;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
  readonly logger: GatewayLogger;
  readonly now: () => number;
}

/** A session's turns since its last pass. */
interface Pending {
  /** The lowest trust tier of those turns (a guest's words never become anyone's memory). */
  tier: TrustTier;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The end-of-session extraction pass: once a session has been quiet for `idleMs` (or right before `/new` starts it
 * afresh), a cheap model reads the session's messages since its last pass and proposes durable facts, each kept with
 * the transcript seqs of the user messages that state it (`source.messageId`, comma-separated). Off the critical
 * path: it runs in the background and never delays a reply. Contract: never throws; failures are logged. Which
 * messages were read is kept in memory: after a restart a session's messages may be read again (equal facts merge).
 */
export class SessionExtraction {
  readonly #deps: SessionExtractionDeps;
  readonly #pending = new Map<string, Pending>();
  /** Where each session's next pass starts reading (after what its last pass read); absent: from the start. */
  readonly #fromSeq = new Map<string, number>();
  /** Aborts the model calls under way at shutdown. */
  readonly #abort = new AbortController();
  #stopped = false;

  constructor(deps: SessionExtractionDeps) {
    this.#deps = deps;
  }

  /** A turn of the session ended (its messages are committed): the pass runs once the session stays quiet. */
  turnEnded(sessionKey: string, tier: TrustTier): void {
    if (this.#stopped) return;
    const pending = this.#pending.get(sessionKey) ?? { tier, timer: undefined };
    pending.tier = lowerTier(pending.tier, tier);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    pending.timer = setTimeout(() => this.#run(sessionKey), this.#deps.options.idleMs ?? DEFAULT_EXTRACTION_IDLE_MS);
    pending.timer.unref?.();
    this.#pending.set(sessionKey, pending);
  }

  /**
   * The session is about to start afresh (`/new`): reads its messages now, before they leave the transcript, and
   * runs the pass on them in the background. Contract: resolves once they are read; never rejects.
   */
  async sessionEnding(sessionKey: string): Promise<void> {
    const pending = this.#take(sessionKey);
    if (this.#stopped) return;
    if (pending === undefined) return;
    try {
      const entries = await this.#read(sessionKey);
      this.#deps.track(this.#extract(sessionKey, pending.tier, entries));
    } catch (error) {
      this.#deps.logger.warn({ sessionKey, error: describeError(error) }, "memory extraction failed");
    }
  }

  /** Stops every waiting pass (gateway shutdown) and aborts the model calls under way (they propose nothing). */
  stop(): void {
    this.#stopped = true;
    this.#abort.abort();
    for (const pending of this.#pending.values()) if (pending.timer !== undefined) clearTimeout(pending.timer);
    this.#pending.clear();
  }

  #take(sessionKey: string): Pending | undefined {
    const pending = this.#pending.get(sessionKey);
    if (pending === undefined) return undefined;
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    this.#pending.delete(sessionKey);
    return pending;
  }

  #run(sessionKey: string): void {
    const pending = this.#take(sessionKey);
    if (pending === undefined) return;
    const work = this.#read(sessionKey)
      .then((entries) => this.#extract(sessionKey, pending.tier, entries))
      .catch((error: unknown) => {
        this.#deps.logger.warn({ sessionKey, error: describeError(error) }, "memory extraction failed");
      });
    this.#deps.track(work);
  }

  async #extract(sessionKey: string, tier: TrustTier, entries: readonly TranscriptEntry[]): Promise<void> {
    const lastSeq = entries.at(-1)?.seq;
    if (lastSeq === undefined) return;
    // The next pass of this session starts after what this one read (whatever it finds).
    this.#fromSeq.set(sessionKey, lastSeq + 1);
    const scope = this.#deps.scopesOf(sessionKey, tier).write;
    if (scope === undefined || !(await this.#deps.enabled(sessionKey))) return;
    const { options } = this.#deps;
    const model = this.#deps.findModel(options.model);
    if (model === undefined) {
      this.#deps.logger.warn({ sessionKey, model: options.model }, "memory extraction model is unknown");
      return;
    }
    const messages = entries.flatMap((entry) => extractionMessage(entry));
    const proposals = await extractFacts(messages, {
      streamFn: this.#deps.streamFn,
      model,
      streamOptions: { signal: this.#abort.signal },
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

  #read(sessionKey: string): Promise<TranscriptEntry[]> {
    const fromSeq = this.#fromSeq.get(sessionKey);
    return this.#deps.store.readTranscript(sessionKey, fromSeq === undefined ? undefined : { fromSeq });
  }
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
