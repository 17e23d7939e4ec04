import type { Channel } from "@chorus/channel";
import { SlackChannel, type SlackChannelOptions } from "./slack-channel.js";

export { SLACK_CAPABILITIES, SlackChannel, type SlackChannelOptions } from "./slack-channel.js";
export { SLACK_SLASH_COMMANDS } from "./slack-commands.js";
export { toSlackChannelError } from "./slack-errors.js";
export { SLACK_MAX_UPLOAD_BYTES } from "./slack-send-file.js";

/**
 * A Slack app as a Channel (Socket Mode or HTTP). @slack/bolt is loaded when the channel starts.
 * Contract: throws ChannelOptionsError for missing options; see SlackChannel.
 */
export function createSlackChannel(options: SlackChannelOptions): SlackChannel & Channel {
  return new SlackChannel(options);
}
