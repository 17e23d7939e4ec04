import { z } from "zod";
import { defineTool } from "../../tools/define-tool.js";
import type { AnyAgentTool, ToolOutput } from "../../tools/tool-types.js";
import { MAX_SCOPE_CHARS } from "./focus-config.js";
import { type FocusSegment, type FocusState, FocusToolError } from "./focus-state.js";

/** Names of the two Focus tools (as the paper names them). */
export const START_FOCUS_TOOL = "start_focus";
export const COMPLETE_FOCUS_TOOL = "complete_focus";

/** What the tools need besides the state. */
export interface FocusToolsOptions {
  maxKnowledgeChars: number;
  /** Called after a tool changed the state (e.g. to store it). Must not throw. */
  changed(): void;
}

const startParameters = z.object({
  scope: z
    .string()
    .describe("What you are about to investigate or do, in one line (e.g. 'find where the API key is read')."),
});

const completeParameters = z.object({
  knowledge: z
    .string()
    .describe(
      "What is worth keeping from this focus: facts, file paths, names, decisions, dead ends to avoid. The raw " +
        "messages of the focus are removed from your context and replaced by this text.",
    ),
});

/**
 * `start_focus {scope}` and `complete_focus {knowledge}` over one session's FocusState. The model's own tools — also
 * when a guest in a group steers it — so bad input only ever earns an error result: a second open, a close with none
 * open, an empty scope or knowledge, knowledge over `maxKnowledgeChars` (refused whole, never cut silently), and a
 * scope flattened to one line of at most 200 characters. Contract: each runs alone (never in parallel with another
 * call), changes the state only when it succeeds, and never throws.
 */
export function focusTools(state: FocusState, options: FocusToolsOptions): AnyAgentTool[] {
  const startFocus = defineTool({
    name: START_FOCUS_TOOL,
    description:
      "Open a focus segment before a distinct piece of exploration or work (reading files, trying commands, a " +
      "sub-task). When it is done, call complete_focus with what you learned: the messages in between are then " +
      "replaced in your context by that knowledge. One focus at a time.",
    parameters: startParameters,
    category: "info",
    execute: ({ scope }, ctx): ToolOutput => {
      const line = scope.replace(/\s+/g, " ").trim().slice(0, MAX_SCOPE_CHARS);
      if (line === "") return failure("The scope is empty: say in one line what this focus is about.");
      return attempt(() => {
        state.start(line, ctx.toolCallId);
        options.changed();
        return `Focus started: "${line}". When you are done, call complete_focus with what is worth keeping.`;
      });
    },
  });
  const completeFocus = defineTool({
    name: COMPLETE_FOCUS_TOOL,
    description:
      "Close the open focus segment with the knowledge worth keeping (facts, paths, names, decisions, dead ends). " +
      "The segment's raw messages are removed from your context and this knowledge stays in their place.",
    parameters: completeParameters,
    category: "info",
    execute: ({ knowledge }, ctx): ToolOutput => {
      const text = knowledge.trim();
      if (text === "") return failure("The knowledge is empty: write what is worth keeping from this focus.");
      if (text.length > options.maxKnowledgeChars) {
        return failure(
          `The knowledge is ${text.length} characters; at most ${options.maxKnowledgeChars} are kept. Shorten it to ` +
            "what is worth keeping and call complete_focus again (the focus is still open).",
        );
      }
      return attempt(() => {
        const segment: FocusSegment = state.complete(text, ctx.toolCallId);
        options.changed();
        return (
          `Focus completed: "${segment.scope}". From your next step on, its messages are replaced by your ` +
          `knowledge (focus #${segment.id}).`
        );
      });
    },
  });
  return [startFocus, completeFocus];
}

function attempt(run: () => string): ToolOutput {
  try {
    return { content: [{ type: "text", text: run() }] };
  } catch (error) {
    if (error instanceof FocusToolError) return failure(error.message);
    throw error;
  }
}

function failure(text: string): ToolOutput {
  return { content: [{ type: "text", text }], isError: true };
}
