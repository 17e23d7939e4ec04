import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { clusterInstanceConfig, type FakeLlmServer, type FakeTelegram } from "@chorus/testkit";
import { type ChildBot, startChildBot } from "../side-by-side/child-bot.js";
import { chorusMain } from "../side-by-side/chorus-system.js";

const READY_TIMEOUT_MS = 60_000;

/** What every instance of one run shares. */
export interface ClusterRun {
  readonly dir: string;
  readonly telegram: FakeTelegram;
  readonly model: FakeLlmServer;
  readonly databaseUrl: string;
  /** The balancer's base URL: what every instance registers with `setWebhook`. */
  readonly publicUrl: string;
  readonly leaseMs: number;
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
    secretToken: "bench_webhook_secret",
  };
  const config = { name, dir: run.dir, modelUrl: run.model.url, databaseUrl: run.databaseUrl, leaseMs: run.leaseMs };
  await writeFile(configFile, clusterInstanceConfig({ ...config, telegram }));
  const bot = startChildBot([chorusMain(), "start", "--config", configFile], { HOME: run.dir }, run.dir);
  try {
    await bot.waitForLine(/"msg":"chorus started"/, READY_TIMEOUT_MS);
  } catch (error) {
    await bot.stop();
    throw error;
  }
  return { name, port, bot };
}
