import type { CoreSystem } from "../systems/core-system.js";
import { buildTranscript } from "../workloads/idle-transcript.js";
import { forceGc } from "./gc.js";
import { median } from "./stats.js";

export interface IdleAgentHeapOptions {
  agents: number;
  transcriptLength: number;
  rounds: number;
}

export interface IdleAgentHeapResult {
  /** A system name, or "bare transcript" for the arrays alone. */
  subject: string;
  /** Median heap bytes per agent (or per bare transcript). */
  bytesPerAgent: number;
}

/** The name of the baseline row: N transcripts held in plain arrays, no agent. */
export const BARE_TRANSCRIPT = "bare transcript (no agent)";

function heapPerItem(count: number, make: (index: number) => unknown): number {
  forceGc();
  const before = process.memoryUsage().heapUsed;
  const items = Array.from({ length: count }, (_, index) => make(index));
  forceGc();
  const after = process.memoryUsage().heapUsed;
  // Reading `items` after the second reading keeps them alive through that collection.
  return (after - before) / items.length;
}

/**
 * Heap per idle agent holding a fresh `transcriptLength`-message transcript, measured as the
 * heapUsed delta across creating `agents` of them between forced collections; the bare
 * transcript row is the floor every agent pays. Contract: needs node --expose-gc.
 */
export function measureIdleAgentHeap(
  systems: readonly CoreSystem[],
  options: IdleAgentHeapOptions,
): IdleAgentHeapResult[] {
  const subjects: { subject: string; make: (index: number) => unknown }[] = [
    { subject: BARE_TRANSCRIPT, make: (index) => buildTranscript(options.transcriptLength, index) },
  ];
  for (const system of systems) {
    const create = system.createIdleAgent;
    if (create)
      subjects.push({
        subject: system.name,
        make: (index) => create(buildTranscript(options.transcriptLength, index)),
      });
  }
  const samples = new Map<string, number[]>(subjects.map((s) => [s.subject, []]));
  for (let round = 0; round < options.rounds; round++) {
    // Seeds differ per round so no string survives from an earlier round.
    for (const { subject, make } of subjects) {
      samples.get(subject)?.push(heapPerItem(options.agents, (index) => make(round * options.agents + index)));
    }
  }
  return subjects.map(({ subject }) => ({ subject, bytesPerAgent: median(samples.get(subject) ?? []) }));
}
