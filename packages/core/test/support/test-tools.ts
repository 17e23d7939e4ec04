import { z } from "zod";
import { type AgentEvent, type AgentTool, defineTool, type ToolCategory } from "../../src/index.js";

/** A safe info tool that answers its text at once. */
export const echoTool = defineTool({
  name: "echo",
  description: "Echoes its text",
  parameters: z.object({ text: z.string() }),
  category: "info",
  concurrencySafe: true,
  execute: async ({ text }) => ({ content: [{ type: "text", text }] }),
});

/** A tool whose calls finish only when the test releases them, recording start order. */
export interface GateTool {
  tool: AgentTool<z.ZodObject<{ id: z.ZodString }>>;
  started: string[];
  signals: Map<string, AbortSignal>;
  release(id: string, text?: string): void;
  fail(id: string, message: string): void;
}

/** Builds a gate tool; `safe` decides concurrency-safety, `ignoreSignal` makes it deaf to aborts. */
export function gateTool(
  name: string,
  options: { safe?: boolean; category?: ToolCategory; ignoreSignal?: boolean; cancelSiblingsOnFailure?: boolean } = {},
): GateTool {
  const started: string[] = [];
  const signals = new Map<string, AbortSignal>();
  const waiters = new Map<string, { resolve: (text: string) => void; reject: (e: Error) => void }>();
  const tool = defineTool({
    name,
    description: `${name} waits for the test`,
    parameters: z.object({ id: z.string() }),
    category: options.category ?? "info",
    concurrencySafe: options.safe ?? false,
    ...(options.cancelSiblingsOnFailure ? { cancelSiblingsOnFailure: true } : {}),
    execute: ({ id }, ctx) =>
      new Promise((resolve, reject) => {
        started.push(id);
        signals.set(id, ctx.signal);
        waiters.set(id, {
          resolve: (text) => resolve({ content: [{ type: "text", text }] }),
          reject,
        });
        if (!options.ignoreSignal) {
          ctx.signal.addEventListener("abort", () => reject(new Error(`${id} aborted`)), { once: true });
        }
      }),
  });
  return {
    tool,
    started,
    signals,
    release: (id, text = `${id} done`) => waiters.get(id)?.resolve(text),
    fail: (id, message) => waiters.get(id)?.reject(new Error(message)),
  };
}

/** Collects an event stream into an array. */
export async function collect(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

/** The events of one type, narrowed. */
export function ofType<T extends AgentEvent["type"]>(
  events: AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}

/** The text of a message's first text block. */
export function textOf(message: unknown): string {
  const content = (message as { content: unknown }).content;
  if (typeof content === "string") return content;
  const block = (content as { type: string; text?: string }[]).find((c) => c.type === "text");
  return block?.text ?? "";
}
