import type { PreDispatchPolicy } from "@chorus/core";
import type { DispatchRequest } from "./dispatch-request.js";
import { mergeToolGroups, type ToolGroupMap } from "./tool-groups.js";
import { evaluateToolPolicy, type ToolPolicy } from "./tool-policy.js";
import { DEFAULT_TIER_POLICIES, parseTrustTier, type TrustTier } from "./trust-tiers.js";

export interface ToolPolicyGateOptions {
  /** A fixed policy applied to every call (in addition to the tier policy). */
  policy?: ToolPolicy;
  /**
   * The tier of the caller of this call. Default: `run.meta.trustTier`, and "guest" when absent.
   * Pass `false` to skip tiers and use `policy` alone.
   */
  tierOf?: ((request: DispatchRequest) => TrustTier) | false;
  /** Per-tier overrides of DEFAULT_TIER_POLICIES. */
  tiers?: Partial<Record<TrustTier, ToolPolicy>>;
  /** Extra group memberships (e.g. the host's admin tools). */
  groups?: ToolGroupMap;
}

/**
 * A core preDispatch policy enforcing tool policy and trust tiers per call.
 * Contract: answers deny with a reason the model sees, or allow; never throws.
 */
export function createToolPolicyGate(options: ToolPolicyGateOptions = {}): PreDispatchPolicy {
  const groups = mergeToolGroups(options.groups);
  const tiers = { ...DEFAULT_TIER_POLICIES, ...options.tiers };
  const tierOf =
    options.tierOf === undefined ? (r: DispatchRequest) => parseTrustTier(r.run.meta?.trustTier) : options.tierOf;
  return (request) => {
    const name = request.toolCall.name;
    if (options.policy) {
      const verdict = evaluateToolPolicy(options.policy, name, groups);
      if (!verdict.allowed) return { kind: "deny", reason: verdict.reason };
    }
    if (tierOf) {
      const tier = tierOf(request);
      const verdict = evaluateToolPolicy(tiers[tier], name, groups);
      if (!verdict.allowed) return { kind: "deny", reason: `Tool "${name}" is not available to a ${tier} user.` };
    }
    return { kind: "allow" };
  };
}
