import type { InboundMessage } from "@chorus/channel";
import { toSlackChannelError } from "./slack-errors.js";

/**
 * The slash commands this channel answers; a Slack app declares them in its manifest (a command left out of the
 * manifest is simply never sent). `/chorus <command>` reaches every other gateway command.
 */
export const SLACK_SLASH_COMMANDS = ["/agents", "/goal", "/usage", "/schedule", "/chorus"] as const;

/** The fields of a slash command payload this channel reads. */
export interface SlackSlashCommandPayload {
  readonly command: string;
  readonly text?: string;
  readonly user_id: string;
  readonly user_name?: string;
  readonly channel_id: string;
  readonly team_id?: string;
  readonly trigger_id?: string;
}

/** Bolt's `respond` for one command (posts to its response_url). */
export type SlackRespond = (message: { text: string; response_type: "ephemeral" | "in_channel" }) => Promise<unknown>;

/**
 * Turns `/agents args` (and `/goal`, `/usage`, `/schedule`) into the text "/agents args" and `/chorus status x` into "/status x", with an
 * `interaction.respond` that answers through the command's response_url (ephemerally when asked).
 * Contract: returns undefined for an empty `/chorus`.
 */
export function normaliseSlackCommand(
  command: SlackSlashCommandPayload,
  respond: SlackRespond,
  accountId: string,
  receivedAt: number,
): InboundMessage | undefined {
  const args = (command.text ?? "").trim();
  let text: string;
  if (command.command === "/chorus") {
    if (args.length === 0) return undefined;
    text = args.startsWith("/") ? args : `/${args}`;
  } else {
    text = args.length > 0 ? `${command.command} ${args}` : command.command;
  }
  const id = command.trigger_id ?? `${command.channel_id}:${receivedAt}`;
  const inbound: InboundMessage = {
    channel: "slack",
    accountId,
    chatType: command.channel_id.startsWith("D") ? "dm" : "group",
    chatId: command.channel_id,
    messageId: id,
    eventId: id,
    sender: { id: command.user_id, name: command.user_name ?? command.user_id, isBot: false },
    text,
    // A slash command is addressed to this app by construction.
    mentionsBot: true,
    replyToBot: false,
    attachments: [],
    receivedAt,
    interaction: {
      respond: async (answer, { ephemeral }) => {
        try {
          await respond({ text: answer, response_type: ephemeral ? "ephemeral" : "in_channel" });
        } catch (error) {
          throw toSlackChannelError(error, "command response");
        }
      },
    },
  };
  return command.team_id === undefined ? inbound : { ...inbound, guildId: command.team_id };
}
