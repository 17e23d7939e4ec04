import type { AgentLoopConfig } from "../loop/loop-config.js";
import type { PreDispatchPolicy, PreTurnPolicy } from "../policies/policy-types.js";
import type { AnyAgentTool, ToolOutput } from "../tools/tool-types.js";
import type { AgentHooks } from "./hook-types.js";
import { runHooks } from "./run-hooks.js";

/**
 * Turns `config.hooks` into what the loop already runs: a pre-turn policy (turn_start; a block stops the run), a
 * pre-dispatch policy (pre_tool_use; a block denies the call with its reason) and tools wrapped for post_tool_use
 * (awaited after each call, never changing its result, failures logged). pre_compact and pre_prompt run in the loop.
 * Contract: returns `config` itself when it has no hooks.
 */
export function applyHooks(config: AgentLoopConfig): AgentLoopConfig {
  const hooks = config.hooks;
  if (!hooks) return config;
  const logger = config.logger;
  const preTurn: PreTurnPolicy = async (ctx) => {
    const outcome = await runHooks(
      hooks,
      { event: "turn_start", runId: ctx.run.runId, sessionId: ctx.run.sessionId, turn: ctx.turn },
      ctx.signal,
      logger,
    );
    return outcome.kind === "block"
      ? { kind: "stop", reason: `Stopped by a turn_start hook: ${outcome.reason}` }
      : undefined;
  };
  const preDispatch: PreDispatchPolicy = async (ctx) => {
    const outcome = await runHooks(
      hooks,
      {
        event: "pre_tool_use",
        runId: ctx.run.runId,
        sessionId: ctx.run.sessionId,
        turn: ctx.turn,
        toolName: ctx.tool.name,
        toolCallId: ctx.toolCall.id,
        args: ctx.args,
      },
      ctx.signal,
      logger,
    );
    return outcome.kind === "block" ? { kind: "deny", reason: `Blocked by a hook: ${outcome.reason}` } : undefined;
  };
  const next: AgentLoopConfig = { ...config };
  if (hooks.turn_start?.length) next.preTurnPolicies = [preTurn, ...(config.preTurnPolicies ?? [])];
  if (hooks.pre_tool_use?.length) next.preDispatchPolicies = [preDispatch, ...(config.preDispatchPolicies ?? [])];
  if (hooks.post_tool_use?.length && config.tools) {
    next.tools = config.tools.map((tool) => withPostToolHooks(tool, hooks, config));
  }
  return next;
}

function withPostToolHooks(tool: AnyAgentTool, hooks: AgentHooks, config: AgentLoopConfig): AnyAgentTool {
  return {
    ...tool,
    async execute(args, ctx) {
      let output: ToolOutput;
      try {
        output = await tool.execute(args, ctx);
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        await notify(text, true);
        throw error;
      }
      await notify(textOf(output), output.isError === true);
      return output;

      async function notify(text: string, isError: boolean): Promise<void> {
        await runHooks(
          hooks,
          {
            event: "post_tool_use",
            runId: ctx.run.runId,
            sessionId: ctx.run.sessionId,
            toolName: tool.name,
            toolCallId: ctx.toolCallId,
            args,
            isError,
            output: text,
          },
          ctx.signal,
          config.logger,
        );
      }
    },
  };
}

function textOf(output: ToolOutput): string {
  return output.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}
