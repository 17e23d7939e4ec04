import { existsSync } from "node:fs";
import { mkdtemp, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ReportTable } from "../report/report-types.js";
import { chatSdkBotScript, REDIS_URL } from "./chat-sdk-system.js";
import type { ChatWorkload } from "./chat-workload.js";
import { chorusMain } from "./chorus-system.js";
import { cpuProfileTables } from "./cpu-profile-tables.js";
import type { RunPlan } from "./measure-system-run.js";
import { assertRedisReachable } from "./redis-keys.js";
import { runSideBySide } from "./run-side-by-side.js";
import type { SideBySideOptions } from "./side-by-side-options.js";
import { sideBySideTable } from "./side-by-side-report.js";

const workload = (chats: number, messagesPerChat: number, firstChat: number): ChatWorkload => ({
  chats,
  messagesPerChat,
  maxOutstanding: 50,
  firstChat,
  replyTimeoutMs: 30_000,
});

/** Issue #24's workload: 200 DM chats × 5 messages, 50 outstanding; a warm-up of 50 other chats × 2 first. */
export const SIDE_BY_SIDE_PLAN: RunPlan = {
  warmup: workload(50, 2, 10_000),
  timed: workload(200, 5, 0),
  settleMs: 150,
};

async function profileFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(".cpuprofile")) files.push(join(entry.parentPath, entry.name));
  }
  const sized = await Promise.all(files.map(async (file) => ({ file, size: (await stat(file)).size })));
  return sized.sort((a, b) => b.size - a.size).map((entry) => entry.file);
}

/**
 * The side-by-side part of the platforms suite: Chat SDK bots and `chorus start` as child processes on the same fakes.
 * Contract: throws with a clear message when a bot cannot be started or loses/duplicates replies in its warm-up;
 * with `profile`, also returns the profile tables and leaves the `.cpuprofile` files in a temp folder it names.
 */
export async function sideBySidePart(
  options: SideBySideOptions,
  progress: (line: string) => void,
): Promise<ReportTable[]> {
  for (const [what, path, build] of [
    ["the Chat SDK bot", chatSdkBotScript(), "pnpm --filter @chorus/bench build"],
    ["chorus start", chorusMain(), "pnpm turbo run build --filter=@chorus/bot..."],
  ] as const) {
    if (!existsSync(path)) throw new Error(`${what} is not built (${path} is missing): run ${build}`);
  }
  const redisSystems = options.systems.filter((system) => system.id.endsWith("-redis"));
  if (redisSystems.length > 0) {
    await assertRedisReachable(REDIS_URL, redisSystems.map((system) => system.id).join(", "));
  }
  const profileDir = options.profile === undefined ? undefined : await mkdtemp(join(tmpdir(), "chorus-bench-profile-"));
  const series = await runSideBySide(
    {
      platforms: options.platforms,
      systems: options.systems,
      rounds: options.rounds,
      plan: SIDE_BY_SIDE_PLAN,
      chatSdkConcurrency: options.chatSdkConcurrency,
      ...(profileDir === undefined ? {} : { cpuProfileDir: profileDir }),
    },
    progress,
  );
  const messages = SIDE_BY_SIDE_PLAN.timed.chats * SIDE_BY_SIDE_PLAN.timed.messagesPerChat;
  const table = sideBySideTable(series, options.rounds, messages);
  table.notes.push(`Chat SDK bots run with concurrency "${options.chatSdkConcurrency}" (--chat-sdk-concurrency)`);
  const tables = [table];
  if (profileDir !== undefined) {
    const files = await profileFiles(profileDir);
    for (const platform of options.platforms) {
      const ofPlatform = files.filter((file) => file.includes(`/${platform}-`));
      const window = series.find((s) => s.platform === platform)?.rounds[0]?.timedWindowUs;
      tables.push(...(await cpuProfileTables(options.profile?.label ?? "", platform, ofPlatform, window)));
    }
  }
  return tables;
}
