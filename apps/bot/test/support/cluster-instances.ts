// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { queryOnce } from "@chorus/store-postgres/testing";
import type { startFakeOpenAI } from "@chorus/testkit";
import { expect, vi } from "vitest";
import { BotProcess } from "./bot-process.js";

type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

/** The text of the last user message of a Chat Completions request. */
export function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.filter((message) => message.role === "user").at(-1);
  const content = last?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? "").join("") : "";
}

/** Makes the fake model answer each of the next `count` calls with `echo: <the user's last message>`. */
export function echoEveryMessage(openai: FakeOpenAI, count: number): void {
  for (let i = 0; i < count; i++) {
    openai.enqueue((request) => [{ type: "text", text: `echo: ${lastUserText(request.body)}` }]);
  }
}

/** One `chorus start` of a cluster: the agent `assistant` on the fake OpenAI, the database, and `channels` (YAML). */
export interface ClusterInstanceSpec {
  readonly dir: string;
  readonly name: string;
  readonly openai: FakeOpenAI;
  readonly databaseUrl: string;
  /** The lines under `channels:`, indented by two spaces. */
  readonly channels: readonly string[];
  /** Secrets the channel lines refer to as `${NAME}`. */
  readonly env?: NodeJS.ProcessEnv;
  readonly leaseMs?: number;
}

/**
 * Starts `chorus start` in cluster mode as a child process (instanceId = `name`, dataDir `<dir>/<name>`), and
 * resolves once it logged "chorus started". Contract: the caller kills it (`BotProcess.kill`) in its cleanup.
 */
export async function startClusterInstance(spec: ClusterInstanceSpec): Promise<BotProcess> {
  const configFile = join(spec.dir, `${spec.name}.yaml`);
  await writeFile(
    configFile,
    [
      `instanceId: ${spec.name}`,
      `dataDir: ${JSON.stringify(join(spec.dir, spec.name))}`,
      "providers:",
      "  openai:",
      "    apiKey: ${E2E_OPENAI_KEY}",
      `    baseUrl: ${JSON.stringify(spec.openai.url)}`,
      "agents:",
      "  - id: assistant",
      "    model: openai/gpt-4.1",
      "channels:",
      ...spec.channels,
      "store:",
      "  kind: postgres",
      "  url: ${E2E_DATABASE_URL}",
      "  cluster: true",
      `  leaseMs: ${spec.leaseMs ?? 1500}`,
      "logging:",
      "  format: json",
      "shutdownGraceMs: 10000",
      "",
    ].join("\n"),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: spec.dir,
    E2E_OPENAI_KEY: "sk-e2e-test-key-0000000000",
    E2E_DATABASE_URL: spec.databaseUrl,
    ...spec.env,
  };
  const bot = new BotProcess(["start", "--config", configFile], { cwd: spec.dir, env });
  try {
    await bot.waitForLine(/"msg":"chorus started"/);
  } catch (error) {
    await bot.kill();
    throw error;
  }
  return bot;
}

/**
 * Resolves once `count` instances hold shard leases (an instance started second gets its share on a later heartbeat),
 * so a test's messages land on sessions owned by every instance. Contract: rejects after `timeoutMs`.
 */
export async function waitForShardOwners(databaseUrl: string, count: number, timeoutMs = 30_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const owners = await queryOnce(
        databaseUrl,
        "SELECT count(DISTINCT owner)::int AS n FROM shard_leases WHERE owner IS NOT NULL",
      );
      expect(owners.rows[0]?.n).toBe(count);
    },
    { timeout: timeoutMs, interval: 200 },
  );
}
