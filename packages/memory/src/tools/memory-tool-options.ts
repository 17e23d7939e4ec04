import type { ToolRunInfo } from "@chorus/core";
import type { FactSource, NewFact, RememberResult } from "../facts/fact-types.js";
import type { RecallMiss } from "../misses/memory-miss.js";
import type { RecallOptions } from "../recall/recall-facts.js";
import type { MemoryStore } from "../store/memory-store.js";

/**
 * The scopes of one caller, decided by the program (the gateway: from the session key and the sender), never by the
 * model: `read` is what `recall` searches; `write` is where `remember` and `forget` act — undefined when this caller
 * may not change memory (a guest), and then they refuse.
 */
export interface MemoryToolScopes {
  readonly read: readonly string[];
  readonly write?: string;
}

/** What `remember` did when the fact is held for later (the gateway writes it with the turn's commit). */
export interface HeldFact {
  readonly kind: "held";
  readonly text: string;
}

/** How the memory tools reach the store. */
export interface MemoryToolsOptions {
  readonly store: MemoryStore;
  /** Fixed scopes, or the scopes of a run (e.g. from `run.meta`). */
  readonly scopes: MemoryToolScopes | ((run: ToolRunInfo) => MemoryToolScopes);
  /** A fact's source. Default: the run's `sessionId` (or "unknown"), the tool call id, now. */
  readonly source?: (run: ToolRunInfo, toolCallId: string) => FactSource;
  /**
   * Writes a fact. Default: `store.remember` at once. A caller that wants facts written only with the turn that
   * produced them checks the fact (`checkFactText`), holds it and answers `held`.
   */
  readonly write?: (
    fact: NewFact,
    call: { readonly toolCallId: string; readonly run: ToolRunInfo },
  ) => Promise<RememberResult | HeldFact>;
  /** Called with each fact written (e.g. to embed it, off the critical path). */
  readonly onRemembered?: (result: RememberResult) => void;
  /** How the `recall` tool ranks (its budget defaults to 1 s: the model asked for it). */
  readonly recall?: RecallOptions;
  /**
   * Called when the `recall` tool finds nothing or fails (`recallMissOf`), to log the miss (`recordMemoryMiss`).
   * Contract: called synchronously and must not throw; the model's result is the same with or without it.
   */
  readonly onMiss?: (miss: RecallMiss, run: ToolRunInfo) => void;
}
