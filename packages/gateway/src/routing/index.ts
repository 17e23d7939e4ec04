export { type AgentRoute, bindingMatches, type RouteInput, resolveAgent } from "./resolve-agent.js";
export { type InboundRoute, resolveQueueMode, routeInbound } from "./route-inbound.js";
export { sessionKeyForInbound } from "./session-key-for-inbound.js";
