import { type AnyAgentTool, defineTool, type ToolOutput, type ToolRunInfo } from "@chorus/core";
import { z } from "zod";
import { MemoryError } from "../facts/memory-errors.js";
import { recallMissOf } from "../misses/memory-miss.js";
import { recallFacts } from "../recall/recall-facts.js";
import { renderRecallBlock } from "../recall/render-recall-block.js";
import type { MemoryToolScopes, MemoryToolsOptions } from "./memory-tool-options.js";

const NO_WRITE = "Memory is read-only in this conversation: nothing was saved or deleted.";

function text(message: string, isError = false): ToolOutput {
  return { content: [{ type: "text", text: message }], ...(isError ? { isError: true } : {}) };
}

/**
 * The tools `remember`, `forget` and `recall` over a `MemoryStore`. Contract: the scope of every call comes from
 * `options.scopes` (the program's decision), never from the model's arguments; a refused fact (too long, a secret)
 * comes back as an error result whose text says why, and nothing is written.
 */
export function createMemoryTools(options: MemoryToolsOptions): AnyAgentTool[] {
  const scopesOf = (run: ToolRunInfo): MemoryToolScopes =>
    typeof options.scopes === "function" ? options.scopes(run) : options.scopes;

  const remember = defineTool({
    name: "remember",
    description:
      "Save one durable fact about the user or this conversation for future sessions (a preference, a name, a plan). " +
      "One short statement per call. Give `subject` (e.g. 'home city') when a newer fact should replace an older one " +
      "on the same subject. Never save passwords, keys or tokens.",
    parameters: z.object({
      fact: z.string().describe("The fact, as one short self-contained sentence."),
      subject: z.string().optional().describe("What the fact is about, so a later fact on it replaces this one."),
    }),
    category: "edit",
    async execute(args, ctx) {
      const scope = scopesOf(ctx.run).write;
      if (scope === undefined) return text(NO_WRITE, true);
      const source = options.source?.(ctx.run, ctx.toolCallId) ?? {
        sessionKey: ctx.run.sessionId ?? "unknown",
        messageId: ctx.toolCallId,
        at: Date.now(),
      };
      const fact = { scope, text: args.fact, source, ...(args.subject === undefined ? {} : { subject: args.subject }) };
      try {
        const write = options.write ?? ((f) => options.store.remember(f));
        const result = await write(fact, { toolCallId: ctx.toolCallId, run: ctx.run });
        if (result.kind === "held") {
          return { ...text("Remembered (saved when this turn completes)."), details: { memoryFact: fact } };
        }
        options.onRemembered?.(result);
        if (result.kind === "merged") return text(`Already remembered (id ${result.fact.id}).`);
        if (result.kind === "replaced") {
          return text(`Updated ${result.fact.id}; it replaced: "${result.previous.text}".`);
        }
        return text(`Remembered (id ${result.fact.id}).`);
      } catch (error) {
        if (error instanceof MemoryError) return text(error.message, true);
        throw error;
      }
    },
  });

  const forget = defineTool({
    name: "forget",
    description: "Delete remembered facts: by id (as shown in remembered facts) or every fact containing the text.",
    parameters: z.object({ target: z.string().min(1).describe("A fact id, or words the facts to delete contain.") }),
    category: "edit",
    async execute(args, ctx) {
      const scope = scopesOf(ctx.run).write;
      if (scope === undefined) return text(NO_WRITE, true);
      const gone = await options.store.forget(scope, args.target);
      if (gone.length === 0) return text(`No remembered fact matches "${args.target}".`);
      return text(`Forgot ${gone.length} fact${gone.length === 1 ? "" : "s"}: ${gone.map((f) => f.id).join(", ")}.`);
    },
  });

  const recall = defineTool({
    name: "recall",
    description: "Search the facts remembered from earlier conversations.",
    parameters: z.object({
      query: z.string().describe("What to look for."),
      limit: z.number().int().min(1).max(20).optional(),
    }),
    category: "info",
    concurrencySafe: true,
    async execute(args, ctx) {
      const scopes = scopesOf(ctx.run).read;
      const result = await recallFacts(options.store, scopes, args.query, {
        budgetMs: 1_000,
        ...options.recall,
        ...(args.limit === undefined ? {} : { k: args.limit }),
      });
      const strategy = options.recall?.embedder === undefined ? "fulltext" : "hybrid";
      const miss = recallMissOf(result, { query: args.query, scopes, strategy });
      if (miss !== undefined) options.onMiss?.(miss, ctx.run);
      if (result.kind === "skipped") return text("Memory search did not answer in time; try again.", true);
      if (result.facts.length === 0) return text("No remembered facts match.");
      return text(renderRecallBlock(result.facts.map((hit) => hit.fact)));
    },
  });

  return [remember, forget, recall];
}
