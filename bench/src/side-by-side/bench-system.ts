import type { FakeLlmServer } from "@chorus/testkit";
import type { ChatSdkConcurrency } from "./chat-sdk-bot-config.js";
import type { SlackBenchPlatform } from "./slack-bench-platform.js";
import type { TelegramBenchPlatform } from "./telegram-bench-platform.js";

/** What a system is started against: one fake platform and the fake model. */
export interface SystemContext {
  readonly platform: TelegramBenchPlatform | SlackBenchPlatform;
  readonly model: FakeLlmServer;
  /** Names this start uniquely (Redis key prefixes, temp folders). */
  readonly runId: string;
  /** When set, the bot process writes a `.cpuprofile` here (node `--cpu-prof`) when it exits. */
  readonly cpuProfileDir?: string;
  /** The `concurrency` strategy the Chat SDK bots run with. */
  readonly chatSdkConcurrency: ChatSdkConcurrency;
}

/** A bot process answering on the fake platform. */
export interface RunningSystem {
  /** The bot's own process, whose CPU time is measured. */
  readonly pid: number;
  /** Points the fake platform's deliveries (webhook / events URL) at this bot; several bots run at once in a round. */
  activate(): Promise<void>;
  /** Stops it gracefully (SIGTERM) and removes what it left (temp folders, Redis keys). Never throws. */
  stop(): Promise<void>;
}

/** One bot compared side by side. */
export interface BenchSystem {
  /** Chosen with `--system <id>`. */
  readonly id: string;
  readonly label: string;
  /** What it answers to an inbound `text` carrying `key`. */
  expectedReply(text: string, key: string): string;
  start(context: SystemContext): Promise<RunningSystem>;
}

/** Node flags that make a process write a CPU profile into `dir` when it exits. */
export function cpuProfileFlags(dir: string | undefined): string[] {
  return dir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", dir];
}
