export { SLACK_CAPABILITIES, SlackChannel, type SlackChannelOptions } from "./slack-channel.js";
export { SLACK_SLASH_COMMANDS } from "./slack-commands.js";
export { toSlackChannelError } from "./slack-errors.js";
