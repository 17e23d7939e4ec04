import type { GatewayConfigInput, GatewayExtension } from "@chorus/gateway";
import { HARNESS_CONFIG, type Harness, type HarnessOptions, startHarness } from "@chorus/gateway-testing";
import { contextExtension } from "../../src/index.js";

/** The one DM of these tests: user-1's with agent main. */
export const CHAT = "dm-user-1";

/** The harness's config with agent main's `compaction` set (pruning, subgoalModel…), and its other settings. */
export function withCompaction(compaction: Record<string, unknown>, agent: Record<string, unknown> = {}) {
  return {
    ...HARNESS_CONFIG,
    agents: [{ id: "main", model: "fake-model", compaction, ...agent }],
  } as GatewayConfigInput;
}

/**
 * A harness with the context extension, given no settings of its own: subgoal pruning comes from the gateway config
 * alone, as in every existing configuration. Extensions in `before` come first (a budget wraps every call).
 */
export function startSubgoalHarness(
  options: HarnessOptions & { readonly pruning?: readonly string[]; readonly before?: readonly GatewayExtension[] },
): Promise<Harness> {
  const { pruning, before, ...rest } = options;
  return startHarness({
    ...(pruning === undefined ? {} : { config: withCompaction({ pruning }) }),
    ...rest,
    gateway: { ...rest.gateway, extensions: [...(before ?? []), contextExtension({ agents: {} })] },
  });
}

/** The text of a message's content (a string, or its text blocks joined). */
export function textOf(message: { content: unknown }): string {
  const { content } = message;
  return typeof content === "string"
    ? content
    : (content as { type: string; text?: string }[]).map((part) => (part.type === "text" ? part.text : "")).join("");
}
