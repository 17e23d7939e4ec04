// `@chorus/gateway/testing`: test support, never used by the gateway itself (some of it needs vitest, so it stays out
// of the main entry and a program using the gateway never loads it). For store packages: the SessionStore
// conformance suites every store runs by one call. For channel adapters and whoever wires a Gateway: a Gateway on a
// scripted model, inbound collectors, a long Markdown reply, an approval probe, an outage script.
export { type ChannelGateway, modelInput, startChannelGateway } from "./channel-gateway.js";
export { CLOCK_START, type ClockedStore, clockedMemoryStore } from "./clocked-store.js";
export { deployNeedsApproval, deployProbe, NOT_YOURS_TO_ANSWER, tryDeploy } from "./deploy-probe.js";
export { InboundCollector } from "./inbound-collector.js";
export { longMarkdownReply } from "./long-markdown-reply.js";
export { describeMemoryMarksAcrossRestarts, type MemoryMarksStores } from "./memory-marks-across-restarts.js";
export { countRetriedDeliveries, shutsGateWhileAnswering } from "./outage-script.js";
export { describeSessionStoreConformance } from "./session-store-conformance.js";
export { describeStoreHousekeepingConformance } from "./store-housekeeping-conformance.js";
export { tapInbound } from "./tap-inbound.js";
