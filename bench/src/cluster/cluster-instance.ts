import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { clusterInstanceConfig, type FakeLlmServer, type FakeTelegram } from "@chorus/testkit";
import { type ChildBot, startChildBot } from "../side-by-side/child-bot.js";
import { chorusMain } from "../side-by-side/chorus-system.js";

const READY_TIMEOUT_MS = 60_000;
/** The webhook secret every instance registers. */
export const CLUSTER_WEBHOOK_SECRET = "bench_webhook_secret";

/** The public webhook URL every instance registers: the balancer's (Chorus serves Telegram on `/telegram`). */
export function clusterWebhookUrl(run: ClusterRun): string {
  return `${run.publicUrl}/telegram`;
}

/** What every instance of one run shares. */
export interface ClusterRun {
  readonly dir: string;
  readonly telegram: FakeTelegram;
  readonly model: FakeLlmServer;
  readonly databaseUrl: string;
  /** The balancer's base URL: what every instance registers with `setWebhook`. */
  readonly publicUrl: string;
  /** Undefined: the store's default. */
  readonly leaseMs: number | undefined;
  /** Each instance writes a `node --cpu-prof` profile here when it stops gracefully. */
  readonly cpuProfileDir?: string;
}

/** One `chorus start` of the cluster. */
export interface ClusterInstance {
  readonly name: string;
  /** Its webhook port, behind the balancer. */
  readonly port: number;
  readonly bot: ChildBot;
}

/**
 * Starts `chorus start` as cluster instance `name` with its webhook on `port` (127.0.0.1).
 * Contract: resolves once it logged "chorus started"; rejects (the process killed) otherwise.
 */
export async function startClusterInstance(run: ClusterRun, name: string, port: number): Promise<ClusterInstance> {
  const configFile = join(run.dir, `${name}.yaml`);
  const telegram = {
    token: run.telegram.token,
    apiRoot: run.telegram.apiRoot,
    port,
    publicUrl: run.publicUrl,
    secretToken: CLUSTER_WEBHOOK_SECRET,
  };
  const config = { name, dir: run.dir, modelUrl: run.model.url, databaseUrl: run.databaseUrl, leaseMs: run.leaseMs };
  await writeFile(configFile, clusterInstanceConfig({ ...config, telegram }));
  const profile = run.cpuProfileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${run.cpuProfileDir}`];
  const bot = startChildBot([...profile, chorusMain(), "start", "--config", configFile], { HOME: run.dir }, run.dir);
  try {
    await bot.waitForLine(/"msg":"chorus started"/, READY_TIMEOUT_MS);
  } catch (error) {
    await bot.stop();
    throw error;
  }
  return { name, port, bot };
}
