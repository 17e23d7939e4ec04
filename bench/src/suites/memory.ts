import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteMemoryStore } from "@chorus/memory";
import {
  afterSessions,
  hashedWordEmbedder,
  loadConversations,
  measureRecallLatency,
  measureRecallQuality,
  type RecallQuality,
} from "../measure/memory-recall.js";
import { formatNumber } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import { generateMemoryConversations } from "../workloads/memory-conversations.js";
import type { BenchSuite } from "./bench-suite.js";

const QUALITY = { users: 40, sessions: 300, distractors: 2, updateRate: 0.5, seed: 20 };
const GOAL_RECALL_AT_5 = 0.9;
const GOAL_P99_MS = 20;
const LATENCY_QUERIES = 2_000;

function percent(value: number): string {
  return `${formatNumber(value * 100, 1)} %`;
}

function qualityRow(name: string, q: RecallQuality): string[] {
  return [
    name,
    percent(q.recallAt5),
    formatNumber(q.mrr, 3),
    percent(q.updatedRecallAt5),
    formatNumber(q.updatedMrr, 3),
  ];
}

/**
 * Issue #20's memory bench: recall quality (recall@5, MRR) of BM25 alone and hybrid (BM25 + a deterministic test
 * embedding, RRF, recency, MMR) on the synthetic long-conversation set, and recall latency at 10 k and 100 k facts on
 * SQLite.
 */
export const memorySuite: BenchSuite = {
  name: "memory",
  description: "long-term memory: recall@5 and MRR (BM25 vs hybrid), p99 recall latency at 10 k / 100 k facts (SQLite)",
  async run(progress) {
    const folders: string[] = [];
    const open = () => {
      const folder = mkdtempSync(join(tmpdir(), "chorus-bench-memory-"));
      folders.push(folder);
      const clock = { now: 0 };
      return { store: new SqliteMemoryStore({ path: join(folder, "memory.db"), now: () => clock.now }), clock };
    };
    try {
      progress(`memory: generating ${QUALITY.users} users × ${QUALITY.sessions} sessions`);
      const conversations = generateMemoryConversations(QUALITY);
      const quality = open();
      await loadConversations(quality.store, quality.clock, conversations, hashedWordEmbedder);
      const now = afterSessions(QUALITY.sessions);
      const facts = (await quality.store.countByScope()).reduce((sum, row) => sum + row.count, 0);
      progress(`memory: ${formatNumber(facts, 0)} facts stored; asking the questions`);
      const bm25 = await measureRecallQuality(quality.store, conversations, now);
      const hybrid = await measureRecallQuality(quality.store, conversations, now, hashedWordEmbedder);
      await quality.store.close();
      const qualityTable: ReportTable = {
        title: "Memory recall quality (synthetic long conversations)",
        headers: ["ranking", "recall@5", "MRR", "recall@5 (updated facts)", "MRR (updated facts)"],
        rows: [qualityRow("BM25 (FTS5)", bm25), qualityRow("hybrid (BM25 + vectors, RRF, recency, MMR)", hybrid)],
        notes: [
          `${QUALITY.users} users × ${QUALITY.sessions} sessions, ${formatNumber(facts, 0)} facts, ${bm25.questions} questions (${bm25.updatedQuestions} about updated facts), asked after the last session`,
          "vectors: the deterministic hashed-word embedding of @chorus/testkit's fake OpenAI (64 dimensions)",
          `goal recall@5 ≥ ${percent(GOAL_RECALL_AT_5)} on updated facts: BM25 ${bm25.updatedRecallAt5 >= GOAL_RECALL_AT_5 ? "met" : "MISSED"}, hybrid ${hybrid.updatedRecallAt5 >= GOAL_RECALL_AT_5 ? "met" : "MISSED"}`,
        ],
      };
      const latencyRows: string[][] = [];
      for (const target of [10_000, 100_000]) {
        const users = Math.ceil(target / (facts / QUALITY.users));
        progress(`memory: ${formatNumber(target, 0)} facts (${users} users); measuring recall latency`);
        const filled = open();
        const set = generateMemoryConversations({ ...QUALITY, users, seed: QUALITY.seed + target });
        await loadConversations(filled.store, filled.clock, set, target <= 10_000 ? hashedWordEmbedder : undefined);
        const stored = (await filled.store.countByScope()).reduce((sum, row) => sum + row.count, 0);
        const at = afterSessions(QUALITY.sessions);
        const text = await measureRecallLatency(filled.store, set, LATENCY_QUERIES, at);
        latencyRows.push([`${formatNumber(stored, 0)} facts, BM25`, ...msCells(text)]);
        if (target <= 10_000) {
          const both = await measureRecallLatency(filled.store, set, LATENCY_QUERIES, at, hashedWordEmbedder);
          latencyRows.push([`${formatNumber(stored, 0)} facts, hybrid`, ...msCells(both)]);
        }
        await filled.store.close();
      }
      const p99At100k = Number.parseFloat(latencyRows.at(-1)?.[2]?.replace(/\s/g, "") ?? "NaN");
      const latencyTable: ReportTable = {
        title: "Memory recall latency (SQLite file, one user's scope + the agent's per query)",
        headers: ["store", "p50 ms", "p99 ms", "max ms"],
        rows: latencyRows,
        notes: [
          `${formatNumber(LATENCY_QUERIES, 0)} recalls (top 5) per row, ~${formatNumber(facts / QUALITY.users, 0)} facts per user`,
          `goal p99 ≤ ${GOAL_P99_MS} ms at 100 k facts: ${p99At100k <= GOAL_P99_MS ? "met" : "MISSED"}`,
        ],
      };
      return { suite: "memory", tables: [qualityTable, latencyTable] };
    } finally {
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    }
  },
};

function msCells(result: { p50Ms: number; p99Ms: number; maxMs: number }): string[] {
  return [formatNumber(result.p50Ms, 2), formatNumber(result.p99Ms, 2), formatNumber(result.maxMs, 2)];
}
