import type { AnyAgentTool, StreamContext, StreamFn } from "@chorus/core";
import type { PlanModeSessions } from "./plan-mode-sessions.js";
import { PROPOSE_PLAN_TOOL } from "./propose-plan-tool.js";

/**
 * What the system prompt says while a session is in plan mode (seed 003 step 14: plan-mode instructions appended to
 * the configured prompt). Fixed text: the prompt's cached prefix changes once when plan mode starts, not per call.
 */
export const PLAN_MODE_SYSTEM_PROMPT = [
  "# Plan mode",
  "Plan mode is on in this conversation: the user wants to approve a plan before anything changes.",
  "- You are offered information (read-only) tools only: look around with them and change nothing.",
  `- When you know enough, call ${PROPOSE_PLAN_TOOL} with your plan as Markdown steps and wait for the answer.`,
  "- Approved: plan mode ends and all your tools come back; carry the plan out. Rejected: revise it from the user's feedback and propose it again.",
  "- Ask the user when something essential is unclear.",
].join("\n");

/**
 * The names of the information tools among those turns are offered, learnt from the sessions' tool lists
 * (`sessionTools`): a model request carries only names and schemas. A name seen once with another category is never
 * one (the safer side).
 */
export class InformationTools {
  readonly #info = new Set<string>();
  readonly #other = new Set<string>();

  learn(tools: readonly AnyAgentTool[]): void {
    for (const tool of tools) {
      if (tool.category === "info" && !this.#other.has(tool.name)) this.#info.add(tool.name);
      else if (tool.category !== "info") {
        this.#other.add(tool.name);
        this.#info.delete(tool.name);
      }
    }
  }

  /** Whether a plan-mode request offers the tool: an information tool, or `propose_plan`. */
  offers(name: string): boolean {
    return name === PROPOSE_PLAN_TOOL || this.#info.has(name);
  }
}

/**
 * Wraps the gateway's model calls: a turn's call (no `purpose`) of a session in plan mode is offered only the
 * information tools and `propose_plan` (seed 003 step 12) and its system prompt says plan mode is on and what is
 * expected (step 14). Decided per call, as the seed's loop does per iteration: once a plan is approved mid-run, the
 * run's next call has every tool and the agent's own prompt again. Contract: every other call passes unchanged; the
 * call-time gate still refuses what is not offered.
 */
export function planModeStreamFn(next: StreamFn, sessions: PlanModeSessions, info: InformationTools): StreamFn {
  return (model, context, options) => {
    const sessionKey = options?.sessionId;
    if (sessionKey === undefined || options?.purpose !== undefined || !sessions.isActive(sessionKey)) {
      return next(model, context, options);
    }
    return next(model, planModeContext(context, info), options);
  };
}

function planModeContext(context: StreamContext, info: InformationTools): StreamContext {
  const systemPrompt =
    context.systemPrompt === undefined || context.systemPrompt === ""
      ? PLAN_MODE_SYSTEM_PROMPT
      : `${context.systemPrompt}\n\n${PLAN_MODE_SYSTEM_PROMPT}`;
  const tools = context.tools?.filter((tool) => info.offers(tool.name));
  return tools === undefined ? { ...context, systemPrompt } : { ...context, systemPrompt, tools };
}
