/**
 * The short system prompt a child gets ahead of its profile's own prompt: who it is, its depth,
 * what it may not do, and that its final answer goes back to the parent.
 */
export function childSystemPrompt(input: {
  depth: number;
  maxSpawnDepth: number;
  deniedTools: readonly string[];
  profilePrompt?: string | undefined;
}): string {
  const { depth, maxSpawnDepth } = input;
  const lines = [
    `You are a sub-agent at depth ${depth} of ${maxSpawnDepth}, started by another agent to do one task.`,
    "Work only on the task you are given. Your final message is returned to the agent that started you, so make it a complete, self-contained answer.",
    depth >= maxSpawnDepth
      ? "You may not start sub-agents of your own."
      : `You may start sub-agents of your own with spawn_agent (they would be at depth ${depth + 1}).`,
  ];
  if (input.deniedTools.length > 0) lines.push(`Tools you may not use: ${input.deniedTools.join(", ")}.`);
  lines.push(
    "You cannot message other sessions, schedule work or use long-term memory; everything you need is in the task.",
  );
  return input.profilePrompt ? `${lines.join("\n")}\n\n${input.profilePrompt}` : lines.join("\n");
}
