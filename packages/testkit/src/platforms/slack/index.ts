export type { ButtonChoice } from "./block-actions.js";
export type { SlackBlock, SlackButtonElement } from "./block-kit.js";
export { startFakeSlack } from "./fake-slack.js";
export { slackSignature } from "./request-signature.js";
export type { SharedFile, SlackFile } from "./slack-files.js";
export type { FakeSlack, FakeSlackOptions, SlackBotSpec, SlackInbound } from "./slack-handle.js";
export type {
  SlackBlockAction,
  SlackBlockActionPayload,
  SlackBotAccount,
  SlackEventBody,
  SlackMessage,
  SlackSigningOverride,
  SlackSlashCommand,
} from "./slack-types.js";
export type { SlackSentFile } from "./slack-uploads.js";
export type { SlackConversation, SlackUser } from "./slack-world.js";
