/**
 * Whose memory a fact is in: one person (across their linked DMs), one group chat, or one agent (what it knows
 * whoever asks). The gateway decides it from the session key and the sender; the model never does.
 */
export type MemoryScope =
  | { readonly kind: "user"; readonly id: string }
  | { readonly kind: "group"; readonly id: string }
  | { readonly kind: "agent"; readonly id: string };

/** A scope as the store keeps it: `user:<id>`, `group:<id>`, `agent:<id>`. Contract: distinct scopes, distinct keys. */
export function formatMemoryScope(scope: MemoryScope): string {
  return `${scope.kind}:${scope.id}`;
}

/** A stored scope key back as a `MemoryScope`, or undefined when it is not one. */
export function parseMemoryScope(key: string): MemoryScope | undefined {
  const match = /^(user|group|agent):(.+)$/s.exec(key);
  if (match === null) return undefined;
  return { kind: match[1] as MemoryScope["kind"], id: match[2] as string };
}
