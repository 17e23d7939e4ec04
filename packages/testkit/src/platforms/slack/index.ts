export { startFakeSlack } from "./fake-slack.js";
export { slackSignature } from "./request-signature.js";
export type { FakeSlack, FakeSlackOptions, SlackBotSpec, SlackInbound } from "./slack-handle.js";
export type {
  SlackBotAccount,
  SlackEventBody,
  SlackMessage,
  SlackSigningOverride,
  SlackSlashCommand,
} from "./slack-types.js";
export type { SlackConversation, SlackUser } from "./slack-world.js";
