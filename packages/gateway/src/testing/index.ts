// Test support for channel adapters and whoever wires a Gateway: a Gateway on a scripted model, inbound collectors,
// a long Markdown reply, an approval probe. Imported as `@chorus/gateway/testing`; never used by the gateway itself.
export { type ChannelGateway, modelInput, startChannelGateway } from "./channel-gateway.js";
export { deployProbe, NOT_YOURS_TO_ANSWER, tryDeploy } from "./deploy-probe.js";
export { InboundCollector } from "./inbound-collector.js";
export { longMarkdownReply } from "./long-markdown-reply.js";
export { countRetriedDeliveries, shutsGateWhileAnswering } from "./outage-script.js";
export { tapInbound } from "./tap-inbound.js";
