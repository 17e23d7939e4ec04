import {
  Agent,
  changedFilesReminder,
  DEFAULT_SUMMARY_PROMPT,
  defineTool,
  type Model,
  pendingTodosReminder,
  timePassedReminder,
} from "@chorus/core";
import { fakeModel } from "@chorus/core/testing";
import { anthropicStreamFn } from "@chorus/providers";
import { type FakeLlmScript, type RecordedLlmRequest, startFakeAnthropic } from "@chorus/testkit";
import { z } from "zod";
import { type CacheBlock, cacheBlocks, measurePrefix, type PrefixMeasure } from "./prompt-cache-prefix.js";

/** Which conversation a request belongs to. */
export type CacheRequestKind = "main" | "sub-agent" | "summariser";

/** One request of the conversation, measured. */
export interface CacheRequestRow extends PrefixMeasure {
  index: number;
  kind: CacheRequestKind;
  /** The first main request after a compaction (its prefix is expected to break). */
  afterCompaction: boolean;
}

export interface CacheConversationOptions {
  /** User prompts of the main conversation. Default 30. */
  turns?: number;
  /** Every n-th prompt delegates to a sub-agent. Default 10. */
  subAgentEvery?: number;
  /** Context window of the model; small enough that one summary compaction happens. Default 24 000. */
  contextWindow?: number;
}

export interface CacheConversationResult {
  rows: CacheRequestRow[];
  compactions: number;
}

const SYSTEM_PROMPT = [
  "You are Chorus, a careful coding assistant working in the user's repository.",
  "Read files before changing them, explain what you did, and keep answers short.",
  "Project notes (CLAUDE.md): TypeScript strict ESM, vitest, Biome; small files, one idea each.",
].join("\n");
const SUB_AGENT_PROMPT =
  "You are a sub-agent. Do the one task you are given with the read tool and report back briefly.";

function fileText(path: string): string {
  const line = `// ${path}: export function handler(input: string): string { return input.trim(); }\n`;
  return line.repeat(30);
}

function model(baseUrl: string, contextWindow: number): Model {
  return fakeModel({
    id: "claude-fake-cache",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl,
    contextWindow,
    maxOutput: 4096,
    capabilities: { tools: true, images: true, thinking: false },
  });
}

/** The script the fake answers a request with: a tool call for a fresh prompt, text after tool results. */
function reply(request: RecordedLlmRequest, turn: number, subAgentEvery: number): FakeLlmScript {
  const body = request.body;
  const system = JSON.stringify(body.system ?? "");
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages.at(-1);
  const answersTool =
    Array.isArray(last?.content) && (last.content as { type: string }[]).some((block) => block.type === "tool_result");
  if (system.includes(DEFAULT_SUMMARY_PROMPT.slice(0, 40))) {
    return [{ type: "text", text: "Summary: the user asked for a series of small code reviews; files were read." }];
  }
  if (answersTool) return [{ type: "text", text: `Done with step ${turn}: the handler trims its input.` }];
  if (system.includes(SUB_AGENT_PROMPT)) {
    return [{ type: "tool_call", name: "read", args: { path: `src/sub/${turn}.ts` } }];
  }
  const delegate = (body.tools as { name: string }[]).some((t) => t.name === "delegate") && turn % subAgentEvery === 0;
  if (delegate) return [{ type: "tool_call", name: "delegate", args: { task: `review module ${turn}` } }];
  return [{ type: "tool_call", name: "read", args: { path: `src/module-${turn}.ts` } }];
}

/**
 * Runs a conversation with tools, reminders, a sub-agent and a compaction through the real
 * Anthropic provider against the fake server, and measures every request's cacheable prefix.
 */
export async function runCacheConversation(options: CacheConversationOptions = {}): Promise<CacheConversationResult> {
  const turns = options.turns ?? 30;
  const subAgentEvery = options.subAgentEvery ?? 10;
  const server = await startFakeAnthropic();
  let turn = 0;
  const kinds: CacheRequestKind[] = [];
  const compactedBefore = new Set<number>();
  try {
    for (let i = 0; i < turns * 8 + 20; i++) {
      server.enqueue((request) => {
        const system = JSON.stringify(request.body.system ?? "");
        kinds.push(
          system.includes(SUB_AGENT_PROMPT)
            ? "sub-agent"
            : system.includes(DEFAULT_SUMMARY_PROMPT.slice(0, 40))
              ? "summariser"
              : "main",
        );
        return reply(request, turn, subAgentEvery);
      });
    }
    const streamFn = anthropicStreamFn({ apiKey: "sk-fake", baseUrl: server.url });
    const m = model(server.url, options.contextWindow ?? 24_000);
    const context = { reserve: 4_000, blockingReserve: 2_000, compaction: { keepRecentTokens: 2_000 } };
    const read = defineTool({
      name: "read",
      description: "Reads a file of the workspace and returns its text.",
      parameters: z.object({ path: z.string() }),
      category: "info",
      concurrencySafe: true,
      execute: async ({ path }) => ({ content: [{ type: "text", text: fileText(path) }] }),
    });
    const delegate = defineTool({
      name: "delegate",
      description: "Hands one task to a sub-agent and returns its report.",
      parameters: z.object({ task: z.string() }),
      category: "exec",
      execute: async ({ task }) => {
        const child = new Agent({ model: m, streamFn, systemPrompt: SUB_AGENT_PROMPT, tools: [read], context });
        const result = await child.prompt(task);
        const text = result.messages
          .flatMap((message) => (message.role === "assistant" ? message.content : []))
          .flatMap((block) => (block.type === "text" ? [block.text] : []))
          .join("\n");
        return { content: [{ type: "text", text }] };
      },
    });
    const todos: string[] = [];
    const fileVersions = new Map<string, number>();
    const agent = new Agent({
      model: m,
      streamFn,
      systemPrompt: SYSTEM_PROMPT,
      tools: [read, delegate],
      context,
      reminders: {
        sources: [
          pendingTodosReminder(() => todos),
          changedFilesReminder(
            () => [...fileVersions.keys()],
            async (path) => fileVersions.get(path),
          ),
          timePassedReminder(),
        ],
      },
    });
    agent.subscribe((event) => {
      if (event.type === "compaction" && event.kind === "summary") compactedBefore.add(kinds.length);
    });
    for (turn = 1; turn <= turns; turn++) {
      if (turn % 4 === 0) todos.push(`follow up on module ${turn}`);
      if (turn % 7 === 0) todos.shift();
      fileVersions.set(`src/module-${turn - 1}.ts`, 1);
      if (turn % 5 === 0) fileVersions.set(`src/module-${turn - 4}.ts`, turn);
      const result = await agent.prompt(`Step ${turn}: look at module ${turn} and tell me what it does.`);
      if (result.reason !== "completed")
        throw new Error(`turn ${turn} ended with ${result.reason}: ${result.error ?? ""}`);
    }
    return { rows: measure(server.requests, kinds, compactedBefore), compactions: compactedBefore.size };
  } finally {
    await server.close();
  }
}

function measure(
  requests: readonly RecordedLlmRequest[],
  kinds: readonly CacheRequestKind[],
  compactedBefore: ReadonlySet<number>,
): CacheRequestRow[] {
  const previous = new Map<CacheRequestKind, CacheBlock[]>();
  const rows: CacheRequestRow[] = [];
  let pendingCompaction = false;
  requests.forEach((request, index) => {
    const kind = kinds[index] ?? "main";
    if (compactedBefore.has(index)) pendingCompaction = true;
    const blocks = cacheBlocks(request.body);
    const afterCompaction = kind === "main" && pendingCompaction;
    if (afterCompaction) pendingCompaction = false;
    rows.push({ index, kind, afterCompaction, ...measurePrefix(blocks, previous.get(kind)) });
    previous.set(kind, blocks);
  });
  return rows;
}
