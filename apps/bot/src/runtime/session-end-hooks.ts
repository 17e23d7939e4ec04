import { type AgentHook, type AgentHooks, runHooks, type SessionEndReason } from "@chorus/core";
import { type ExtensionStartContext, type GatewayExtension, parseSessionKey, rootKeyOf } from "@chorus/gateway";

/**
 * The operator's `session_end` hooks (seed 003 "Session end") as a gateway extension: when the gateway lets a session
 * go after its idle time (`sessionIdle`) the hooks hear `reason: "idle"`; when `/new` (or a schedule's fresh start)
 * clears it (`sessionEnding`), `"cleared"`; when a sub-agent's session ends with its one run (`subagentEnded`: completed,
 * failed, out of turns, stopped by `/stop` or `/agents kill` — not a crash's interruption), `"run_ended"`, with the
 * sub-agent's id as `agent` and its session key, run with the hooks of the agent it belongs to (the root session's
 * agent, whose config lists the sub-agent). Each gets `{ event: "session_end", sessionId, agent, reason }` (a shell
 * hook on stdin), run by core's `runHooks` with the hook's own timeout. They run in the background, tracked so the
 * gateway's `idle()` and `stop()` wait for them: a slow or failing hook is logged and delays nothing — `/new` answers
 * at once and the session is let go as before.
 * (The seed's third moment, "the loop exits", is a session's end only for a sub-agent: a chat session outlives each
 * run, and an autonomous goal's end is the goal's, not the session's.)
 * Contract: hooks only from `hooksByAgent` (the operator's config file); agents without `session_end` hooks cost
 * nothing; never throws into the gateway.
 * @example new Gateway({ …, extensions: [sessionEndHooksExtension({ main: shellHooksOf(agent.hooks, configDir) })] })
 */
export function sessionEndHooksExtension(
  hooksByAgent: Readonly<Record<string, AgentHooks | undefined>>,
): GatewayExtension {
  const byAgent = new Map<string, AgentHook[]>();
  for (const [agentId, hooks] of Object.entries(hooksByAgent)) {
    const list = hooks?.session_end;
    if (list !== undefined && list.length > 0) byAgent.set(agentId, list);
  }
  let context: ExtensionStartContext | undefined;
  const fire = (
    session: { readonly sessionKey: string; readonly agentId: string },
    reason: SessionEndReason,
    hooksOf = session.agentId,
  ): void => {
    const list = byAgent.get(hooksOf);
    if (list === undefined || context === undefined) return;
    const { logger } = context;
    const where = { sessionKey: session.sessionKey, agentId: session.agentId, reason };
    context.track(
      runHooks(
        { session_end: list },
        { event: "session_end", sessionId: session.sessionKey, agent: session.agentId, reason },
        new AbortController().signal,
        { warn: (fields, message) => logger.warn({ ...fields, ...where }, message ?? "session_end hook failed") },
      ),
    );
  };
  return {
    name: "session-end-hooks",
    start(started) {
      context = started;
    },
    sessionIdle(session) {
      fire(session, "idle");
    },
    sessionEnding(session) {
      fire(session, "cleared");
    },
    subagentEnded(session) {
      const root = parseSessionKey(rootKeyOf(session.sessionKey));
      if (root.ok) fire(session, "run_ended", root.key.agentId);
    },
  };
}
