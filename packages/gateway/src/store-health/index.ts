export { StoreReachability, type StoreReachabilityOptions } from "./store-reachability.js";
