/** What the banner lists. */
export interface BannerInput {
  readonly configSource: string;
  readonly channels: readonly { key: string; status: string }[];
  readonly agents: readonly { id: string; model: string }[];
  readonly store: string;
  /** Set when the model was chosen from the environment (no config file). */
  readonly modelExplanation?: string;
}

/**
 * The startup banner: config, channels (with their URLs), agents and models, the store, and how to change the model.
 * Contract: pure; one item per line, no secrets (only what the inputs hold).
 */
export function renderBanner(input: BannerInput): string {
  const lines = [
    "",
    "  Chorus gateway is running",
    `  config    ${input.configSource}`,
    ...input.channels.map(
      (channel, index) => `  ${index === 0 ? "channels " : "         "} ${channel.key}  ${channel.status}`,
    ),
    ...input.agents.map(
      (agent, index) => `  ${index === 0 ? "agents   " : "         "} ${agent.id}  (model ${agent.model})`,
    ),
    `  store     ${input.store}`,
  ];
  if (input.channels.length === 0) lines.splice(3, 0, "  channels  none: add one under channels in the config");
  if (input.modelExplanation !== undefined) lines.push(`  ${input.modelExplanation}`);
  lines.push("");
  return lines.join("\n");
}
