import { Agent, type AgentEvent, DEFAULT_SESSION_MEMORY_PROMPT, SessionMemory } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";

/** What one conversation is played with. */
export interface CompactionTierOptions {
  /** User prompts. Default 30. */
  turns?: number;
  /** Every model call (turn, summariser, session-memory refresh) takes this long. Default 200 ms. */
  latencyMs?: number;
  /** Context window; small enough that several compactions happen. Default 40 000 (threshold 20 000). */
  contextWindow?: number;
  /** Tokens of each prompt and each answer. Default 1 200 / 600. */
  promptTokens?: number;
  answerTokens?: number;
}

/** One compaction of the conversation: which tier served it and how long the user waited at it. */
export interface CompactionWait {
  readonly tier: 1 | 2;
  /** From `compaction_start` to `compaction`: what the turn waited before its own model call. */
  readonly waitMs: number;
  /** The whole turn (prompt → answer) it happened in. */
  readonly turnMs: number;
}

/** One conversation's compactions and its turns' times. */
export interface CompactionTierRun {
  readonly compactions: CompactionWait[];
  /** Wall time of each turn without a compaction. */
  readonly plainTurnMs: number[];
  /** Session-memory refresh calls made (off the turns). */
  readonly refreshes: number;
}

const SUMMARY_TOKENS = 400;
const text = (tokens: number, tag: string): string => `${tag} ${"lorem ipsum ".repeat(Math.ceil(tokens / 3))}`;

/**
 * Plays a `turns`-prompt chat on one Agent whose every model call has a fixed latency, with compaction tier 2 only
 * (`sessionMemory` false) or with a session memory kept beside it (tier 1 first). Contract: never leaves work running.
 */
export async function runCompactionTiers(
  sessionMemory: boolean,
  options: CompactionTierOptions = {},
): Promise<CompactionTierRun> {
  const turns = options.turns ?? 30;
  const latencyMs = options.latencyMs ?? 200;
  const model = fakeModel({ contextWindow: options.contextWindow ?? 40_000 });
  const answer = options.answerTokens ?? 600;
  let refreshes = 0;
  const streamFn = scriptedStreamFn((context) => {
    const refresh = context.systemPrompt === DEFAULT_SESSION_MEMORY_PROMPT;
    if (refresh) refreshes++;
    const summary = refresh || context.systemPrompt?.startsWith("You are compacting") === true;
    return { text: summary ? text(SUMMARY_TOKENS, "gist") : text(answer, "answer"), endDelayMs: latencyMs };
  });
  const memory = sessionMemory ? new SessionMemory({ model, streamFn, sessionId: "bench" }) : undefined;
  const agent = new Agent({
    model,
    streamFn,
    context: { compaction: { keepRecentTokens: 6_000, ...(memory === undefined ? {} : { sessionMemory: memory }) } },
  });
  const compactions: CompactionWait[] = [];
  const plainTurnMs: number[] = [];
  let started: number | undefined;
  let current: { tier: 1 | 2; waitMs: number } | undefined;
  agent.subscribe((event: AgentEvent) => {
    memory?.observe(event, agent.state.messages);
    if (event.type === "compaction_start") started = performance.now();
    else if (event.type === "compaction" && event.kind === "summary" && started !== undefined) {
      current = { tier: event.tier ?? 2, waitMs: performance.now() - started };
      started = undefined;
    }
  });
  for (let turn = 0; turn < turns; turn++) {
    current = undefined;
    const begin = performance.now();
    await agent.prompt(text(options.promptTokens ?? 1_200, `question ${turn}`));
    const turnMs = performance.now() - begin;
    if (current === undefined) plainTurnMs.push(turnMs);
    else compactions.push({ ...(current as { tier: 1 | 2; waitMs: number }), turnMs });
  }
  memory?.release();
  await memory?.whenIdle();
  return { compactions, plainTurnMs, refreshes };
}
