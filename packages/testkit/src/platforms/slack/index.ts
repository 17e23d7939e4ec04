export type { FakeSlack, FakeSlackOptions, SlackBotSpec, SlackInbound } from "./fake-slack.js";
export { startFakeSlack } from "./fake-slack.js";
export { slackSignature } from "./request-signature.js";
export type {
  SlackBotAccount,
  SlackEventBody,
  SlackMessage,
  SlackSigningOverride,
  SlackSlashCommand,
} from "./slack-types.js";
export type { SlackConversation, SlackUser } from "./slack-world.js";
