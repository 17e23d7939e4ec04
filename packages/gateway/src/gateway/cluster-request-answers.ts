import type { SessionStore } from "@chorus/store";
import { runExtensionCommandHere } from "../commands/extension-commands.js";
import type { ClusterAnswer } from "../ownership/cluster-requests.js";
import { ClusterRequests } from "../ownership/cluster-requests.js";
import { StoredIntakeOrder } from "../ownership/stored-intake-order.js";
import type { ClusterRequest } from "./cluster-request.js";
import { compactHere } from "./compact-here.js";
import { answerExtensionCall } from "./extension-owner-calls.js";
import { killRunHere } from "./fleet-control.js";
import type { GatewayContext } from "./gateway-context.js";
import { newSessionHere, setQueueModeHere, stopSessionHere, switchModelHere } from "./session-actions-here.js";
import { statusHere } from "./session-status.js";

/**
 * Asks the instance that owns the request's session to act on it (`/stop`, `/new`, `/model`, `/queue`, `/status` typed on another
 * instance). Contract: undefined when this instance owns the session, when there is no cluster, or when the owner
 * did not answer in time — the caller then acts here (the store is shared; a session whose owner is gone is taken
 * over from it).
 */
export async function askOwner(ctx: GatewayContext, request: ClusterRequest): Promise<ClusterAnswer | undefined> {
  if (ctx.cluster === undefined) return undefined;
  if ("sessionKey" in request && ctx.store.ownership?.fenceFor(request.sessionKey) !== undefined) return undefined;
  return ctx.cluster.ask(request);
}

/**
 * What this instance does for another instance's request: a kill of a run live here, a session command for a
 * session owned here, an approval answer for a request of a run here. Contract: undefined at once (no answer: another
 * instance is meant) otherwise; the answer never rejects (a failure is no answer).
 */
export function answerClusterRequest(ctx: GatewayContext, request: ClusterRequest): Promise<unknown> | undefined {
  if (!isMine(ctx, request)) return undefined;
  return act(ctx, request).catch((error: unknown) => {
    ctx.logger.error({ op: request.op, error: String(error) }, "a request from another instance failed");
    return undefined;
  });
}

function isMine(ctx: GatewayContext, request: ClusterRequest): boolean {
  if (request.op === "kill") return ctx.runs.get(request.runId) !== undefined;
  if (request.op === "approval") return ctx.approvals.holds(request.code);
  return ctx.store.ownership?.fenceFor(request.sessionKey) !== undefined;
}

async function act(ctx: GatewayContext, request: ClusterRequest): Promise<unknown> {
  if (request.op === "kill") return killRunHere(ctx, request.runId);
  if (request.op === "approval") return ctx.approvals.answer(request.code, request.approve, request.by);
  ctx.logger.info({ op: request.op, sessionKey: request.sessionKey }, "command from another instance");
  switch (request.op) {
    case "stop":
      return await stopSessionHere(ctx, request.sessionKey, request.by);
    case "status":
      return await statusHere(ctx, request.sessionKey);
    case "new": {
      const refused = await newSessionHere(ctx, request.sessionKey, request.by);
      return refused === undefined ? { done: true } : { done: false, refused };
    }
    case "model":
      return await switchModelHere(ctx, request.sessionKey, request.modelId);
    case "queue":
      await setQueueModeHere(ctx, request.sessionKey, request.mode);
      return { done: true };
    case "compact":
      return await compactHere(ctx, request.sessionKey);
    case "extension":
      return await runExtensionCommandHere(ctx.extensions.commands, request.name, request.context);
    case "extension-call":
      return await answerExtensionCall(ctx, request.extension, request.call);
    default:
      // A request of another version (e.g. `plan`, which an extension's command replaced): answered with a sentence.
      return `The instance running this chat runs another version of Chorus and cannot carry out "${(request as { op: string }).op}"; try again once every instance runs the same version.`;
  }
}

/**
 * The parts of a cluster instance's context for requests between instances: the intake order, and `ClusterRequests`
 * answering with `answerClusterRequest` (once the context exists). Nothing outside a cluster.
 */
export function clusterContextParts(
  ownership: SessionStore["ownership"],
  context: () => GatewayContext,
  track: (work: Promise<unknown>) => void,
): Pick<GatewayContext, "intakeOrder" | "cluster"> {
  if (ownership === undefined) return {};
  const fleet = ownership.fleet;
  return {
    intakeOrder: new StoredIntakeOrder(),
    ...(fleet === undefined
      ? {}
      : {
          cluster: new ClusterRequests<ClusterRequest>({
            fleet,
            self: fleet.self,
            answer: (request) => answerClusterRequest(context(), request),
            track,
          }),
        }),
  };
}
