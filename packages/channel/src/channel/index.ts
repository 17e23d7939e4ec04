export { AttachmentFetchError, type AttachmentFetchFailure } from "./attachment-fetch-error.js";
export { ChannelError, type ChannelErrorKind } from "./channel-error.js";
export type {
  AttachmentKind,
  AttachmentLocation,
  Channel,
  ChannelCapabilities,
  ChannelStartContext,
  EditRate,
  FetchAttachmentOptions,
  FetchedAttachment,
  InboundAttachment,
  InboundInteraction,
  InboundMessage,
  InboundSender,
  InboundSink,
  InteractionResponseOptions,
  MarkupDialect,
  OutboundButton,
  OutboundFile,
  OutboundMessage,
  SendTarget,
  SentMessage,
} from "./channel-types.js";
export {
  type IngressLease,
  type IngressLeases,
  type IngressRegistration,
  type IngressState,
  type IngressWorker,
  localIngress,
} from "./ingress-leases.js";
export { isMessageNotStored, MessageNotStoredError } from "./message-not-stored-error.js";
export type { SessionChat } from "./session-chat.js";
export {
  type InjectedMessage,
  TEST_CHANNEL_CAPABILITIES,
  TestChannel,
  type TestChannelCall,
  type TestChannelMessage,
  type TestChannelOperation,
  type TestChannelOptions,
} from "./test-channel.js";
