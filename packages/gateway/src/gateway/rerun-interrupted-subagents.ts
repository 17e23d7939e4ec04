import type { AgentMessage, ToolCallContext } from "@chorus/core";
import type { RunRecord } from "@chorus/store";
import { parseSessionKey, rootKeyOf } from "@chorus/store";
import { resolveChannelPolicy } from "../config/resolve-channel-policy.js";
import { describeError } from "../logging/gateway-logger.js";
import { sessionChatOf } from "../routing/session-chat-of.js";
import { wasBackgroundChild } from "../subagent-sessions/background-child.js";
import { rerunMeta } from "../subagent-sessions/subagent-rerun.js";
import type { GatewayContext } from "./gateway-context.js";

/**
 * Runs again, at the instance that took their root sessions over, the background sub-agents whose runs a takeover
 * interrupted (their instance died or was cut off): same agent, task, depth and parent, in the same session (which
 * holds the task), under a new run id, its span linked to the first run's (`chorus.link.type=resumes`); the result reaches the parent's session like any background result, once per
 * task (a late result of the first run and the re-run's are deduped by the task's run id). The re-run runs with the
 * first run's stored spawn settings: its label, its time limit and the trust tier of the run that spawned it (a run
 * stored before these were kept runs as a guest, with the default limit). Runs that are not background sub-agents (root runs; children whose parent
 * still waited for them) are left alone; a background one runs again also when its parent's run was interrupted too. Contract: never rejects; resolves with the background sub-agent runs it could
 * not run again (a root session owned elsewhere or gone, no such sub-agent configured here, no stored task, or a
 * limit refused it) — their parents are to be told they were interrupted.
 */
export async function rerunInterruptedSubagents(
  ctx: GatewayContext,
  interrupted: readonly RunRecord[],
): Promise<RunRecord[]> {
  const notRerun: RunRecord[] = [];
  for (const run of interrupted) {
    if (run.depth === 0 || run.parentRunId === undefined) continue;
    try {
      const parent = await ctx.store.getRun(run.parentRunId);
      if (parent === undefined || !wasBackgroundChild(run, parent)) continue;
      const refusal = await rerun(ctx, run, parent);
      if (refusal === undefined) continue;
      ctx.logger.warn(
        { runId: run.id, sessionKey: run.sessionKey, refusal },
        "an interrupted sub-agent is not run again",
      );
    } catch (error) {
      ctx.logger.error({ runId: run.id, error: describeError(error) }, "could not run an interrupted sub-agent again");
    }
    notRerun.push(run);
  }
  return notRerun;
}

/** Starts the re-run. Contract: resolves with why it could not start, or undefined when it runs. */
async function rerun(ctx: GatewayContext, run: RunRecord, parent: RunRecord): Promise<string | undefined> {
  const parsed = parseSessionKey(run.sessionKey);
  if (!parsed.ok || parsed.key.kind !== "subagent") return "not a sub-agent session";
  const rootKey = rootKeyOf(run.sessionKey);
  if (ctx.store.ownership !== undefined && ctx.store.ownership.fenceFor(rootKey) === undefined) {
    return "its root session is owned by another instance";
  }
  const root = await ctx.store.getSession(rootKey);
  if (root === undefined) return "its root session no longer exists";
  const subagents = ctx.agents.get(root.agentId)?.subagents;
  if (subagents === undefined) return `the agent ${root.agentId} has no sub-agents here`;
  const task = firstUserText((await ctx.store.readTranscript(run.sessionKey)).map((entry) => entry.message));
  if (task === undefined) return "its task is not stored";
  const policy = resolveChannelPolicy(ctx.config, root.channel, root.accountId);
  const chat = sessionChatOf(root);
  const groupToolPolicy = chat.target.chatType === "group" ? policy.groups[chat.target.chatId]?.toolPolicy : undefined;
  // The call spawn_agent would have made for the parent: its run, its depth, its session.
  const call: ToolCallContext = {
    signal: new AbortController().signal,
    toolCallId: `rerun-${run.id}`,
    onUpdate: () => {},
    addUsage: () => {},
    run: {
      runId: parent.id,
      depth: run.depth - 1,
      sessionId: parent.sessionKey,
      meta: {
        trustTier: run.spawn?.trustTier ?? "guest",
        ...(groupToolPolicy === undefined ? {} : { groupToolPolicy }),
        ...rerunMeta(parent.id, run.sessionKey, run.traceparent),
      },
    },
  };
  const { label, timeoutSeconds } = run.spawn ?? {};
  const output = await subagents.spawn(
    {
      agent: parsed.key.agentId,
      task,
      mode: "background",
      ...(label === undefined ? {} : { label }),
      ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    },
    call,
  );
  if (!output.isError) return undefined;
  return output.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
}

function firstUserText(messages: readonly AgentMessage[]): string | undefined {
  for (const message of messages) {
    if ((message as { role?: string }).role !== "user") continue;
    const content = (message as { content?: unknown }).content;
    if (typeof content === "string") return content;
  }
  return undefined;
}
