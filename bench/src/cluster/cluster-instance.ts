import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FakeLlmServer, FakeTelegram } from "@chorus/testkit";
import { type ChildBot, startChildBot } from "../side-by-side/child-bot.js";
import { chorusMain } from "../side-by-side/chorus-system.js";

const READY_TIMEOUT_MS = 60_000;
/** The webhook path Chorus serves Telegram updates on (behind the balancer, the same path on every instance). */
const WEBHOOK_PATH = "/telegram";
/** The webhook secret every instance registers. */
export const CLUSTER_WEBHOOK_SECRET = "bench_webhook_secret";

/** The public webhook URL every instance registers: the balancer's. */
export function clusterWebhookUrl(run: ClusterRun): string {
  return `${run.publicUrl}${WEBHOOK_PATH}`;
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

/** chorus.config.yaml of one cluster instance: PostgreSQL (cluster: true), Telegram webhook on `port`. */
function instanceConfig(run: ClusterRun, name: string, port: number): string {
  return [
    `instanceId: ${name}`,
    `dataDir: ${JSON.stringify(join(run.dir, name))}`,
    "providers:",
    "  openai:",
    "    apiKey: sk-bench-00000000000000",
    `    baseUrl: ${JSON.stringify(run.model.url)}`,
    "agents:",
    "  - id: assistant",
    "    model: openai/gpt-4.1",
    "channels:",
    "  telegram:",
    "    - accountId: main",
    `      token: ${JSON.stringify(run.telegram.token)}`,
    `      apiRoot: ${JSON.stringify(run.telegram.apiRoot)}`,
    "      mode: webhook",
    "      dmPolicy: open",
    "      webhook:",
    `        secretToken: ${CLUSTER_WEBHOOK_SECRET}`,
    `        port: ${port}`,
    `        publicUrl: ${JSON.stringify(clusterWebhookUrl(run))}`,
    "store:",
    "  kind: postgres",
    `  url: ${JSON.stringify(run.databaseUrl)}`,
    "  cluster: true",
    ...(run.leaseMs === undefined ? [] : [`  leaseMs: ${run.leaseMs}`]),
    "logging:",
    "  format: json",
    "",
  ].join("\n");
}

/**
 * Starts `chorus start` as cluster instance `name` with its webhook on `port` (127.0.0.1).
 * Contract: resolves once it logged "chorus started"; rejects (the process killed) otherwise.
 */
export async function startClusterInstance(run: ClusterRun, name: string, port: number): Promise<ClusterInstance> {
  const configFile = join(run.dir, `${name}.yaml`);
  await writeFile(configFile, instanceConfig(run, name, port));
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
