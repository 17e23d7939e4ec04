export { type NetworkGate, startNetworkGate } from "./network-gate.js";
