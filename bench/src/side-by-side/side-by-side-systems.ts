import type { BenchSystem } from "./bench-system.js";
import { chatSdkSystem } from "./chat-sdk-system.js";
import { chorusSystem } from "./chorus-system.js";

/** Every system, in table order; the ratio column compares with `BASELINE_SYSTEM_ID`. */
export const sideBySideSystems: readonly BenchSystem[] = [
  chatSdkSystem("echo", "memory"),
  chatSdkSystem("echo", "redis"),
  chatSdkSystem("fetch", "memory"),
  chatSdkSystem("ai", "memory"),
  chatSdkSystem("ai", "redis"),
  chorusSystem,
];

/** Issue #24's yardstick: the bot a Chat SDK user writes, on Redis state. */
export const BASELINE_SYSTEM_ID = "chat-sdk-ai-redis";
/** Issue #33's peer: the leanest Chat SDK bot that calls the model (a plain streamed `fetch`, memory state). */
export const LEAN_SYSTEM_ID = "chat-sdk-fetch-memory";
/** The system that makes no model call at all. */
export const ECHO_SYSTEM_ID = "chat-sdk-echo-redis";

/** Platforms the side-by-side part runs on. */
export const sideBySidePlatforms = ["telegram", "slack"] as const;
export type SideBySidePlatformName = (typeof sideBySidePlatforms)[number];
