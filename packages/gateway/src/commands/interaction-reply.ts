import type { ChannelCapabilities, InboundInteraction } from "@chorus/channel";
import { renderReplyChunks } from "@chorus/channel";

/**
 * Answers a platform command (Discord application command, Slack slash command) through its interaction: the
 * Markdown is converted to the channel's markup and split to its limits; the first chunk answers the command, the
 * rest follow up, each `ephemeral` as asked.
 * Contract: rejects with the platform's ChannelError when it refuses a chunk (the chunks before it stay sent).
 */
export async function answerInteraction(
  interaction: InboundInteraction,
  markdown: string,
  capabilities: Pick<ChannelCapabilities, "maxMessageLength" | "maxLines" | "markup">,
  ephemeral: boolean,
): Promise<void> {
  for (const chunk of renderReplyChunks(markdown, capabilities)) await interaction.respond(chunk, { ephemeral });
}
