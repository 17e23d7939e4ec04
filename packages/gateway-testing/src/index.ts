// `@chorus/gateway-testing`: test support for whoever builds on the gateway, never used by the gateway itself (it needs
// vitest, so it is a package of its own and a program using the gateway never installs it). For store packages: the
// SessionStore conformance suites every store runs by one call. For channel adapters and whoever wires a Gateway: a
// Gateway on a scripted model, inbound collectors, a long Markdown reply, an approval probe, an outage script. For
// whoever tests a feature through a whole Gateway: a harness on a TestChannel.
export { type ChannelGateway, modelInput, startChannelGateway } from "./channel-gateway.js";
export { CLOCK_START, type ClockedStore, clockedMemoryStore } from "./clocked-store.js";
export { describeCommandRowsWalkedByAGuest, type GuestWalk } from "./command-rows-walked-by-a-guest.js";
export { deployNeedsApproval, deployProbe, NOT_YOURS_TO_ANSWER, tryDeploy } from "./deploy-probe.js";
export { HARNESS_CONFIG, type Harness, type HarnessOptions, modelCatalog, startHarness } from "./gateway-harness.js";
export { InboundCollector } from "./inbound-collector.js";
export { longMarkdownReply } from "./long-markdown-reply.js";
export { countRetriedDeliveries, shutsGateWhileAnswering } from "./outage-script.js";
export { describeSessionStoreConformance } from "./session-store-conformance.js";
export { describeStoreHousekeepingConformance } from "./store-housekeeping-conformance.js";
export { tapInbound } from "./tap-inbound.js";
