export { freePort } from "./free-port.js";
export { type NetworkGate, startNetworkGate } from "./network-gate.js";
export { type RoundRobinBalancer, startRoundRobinBalancer } from "./round-robin-balancer.js";
