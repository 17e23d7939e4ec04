import type { SessionAgentParts } from "@chorus/gateway";

/**
 * The parts of several features as one: context layers applied in order, reminders and tools joined, every listener
 * and release called (a throwing one does not keep the others from theirs). Contract: undefined for no parts.
 */
export function combinedParts(parts: readonly SessionAgentParts[]): SessionAgentParts | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  const layers = parts.flatMap((part) => (part.context === undefined ? [] : [part.context]));
  return {
    ...(layers.length === 0 ? {} : { context: (context) => layers.reduce((inner, layer) => layer(inner), context) }),
    reminders: parts.flatMap((part) => part.reminders ?? []),
    tools: parts.flatMap((part) => part.tools ?? []),
    onEvent: (event, messages) => {
      for (const part of parts) {
        try {
          part.onEvent?.(event, messages);
        } catch {
          // Each feature swallows its own errors; one that did not must not silence the others.
        }
      }
    },
    release: () => {
      for (const part of parts) {
        try {
          part.release?.();
        } catch {
          // As above: every feature is released.
        }
      }
    },
  };
}
