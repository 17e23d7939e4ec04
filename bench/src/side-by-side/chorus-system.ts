import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@chorus/testkit";
import type { BenchSystem, RunningSystem, SystemContext } from "./bench-system.js";
import { cpuProfileFlags } from "./bench-system.js";
import { startChildBot } from "./child-bot.js";
import { removeOnExit } from "./exit-cleanup.js";
import { modelAnswer } from "./fake-model.js";

const READY_TIMEOUT_MS = 60_000;
// The built CLI (`chorus` bin of apps/bot), from src/ and dist/ of the bench alike.
const CHORUS_MAIN = fileURLToPath(new URL("../../../apps/bot/dist/main.js", import.meta.url));

/** Where `chorus start` is run from (apps/bot/dist/main.js; build it with `pnpm turbo run build --filter=@chorus/bot...`). */
export function chorusMain(): string {
  return CHORUS_MAIN;
}

/** chorus.config.yaml for one run: SQLite store in `dir`, the fake model as OpenAI, one channel on the fake. */
function chorusConfig(dir: string, context: SystemContext, slackPort: number): string {
  const platform = context.platform;
  const channel =
    platform.name === "telegram"
      ? [
          "  telegram:",
          "    - accountId: main",
          `      token: ${JSON.stringify(platform.fake.token)}`,
          `      apiRoot: ${JSON.stringify(platform.fake.apiRoot)}`,
          "      mode: webhook",
          "      webhook: { secretToken: bench_webhook_secret }",
          "      dmPolicy: open",
        ]
      : [
          "  slack:",
          "    - accountId: main",
          `      botToken: ${JSON.stringify(platform.fake.botToken)}`,
          `      signingSecret: ${JSON.stringify(platform.fake.signingSecret)}`,
          `      port: ${slackPort}`,
          `      slackApiUrl: ${JSON.stringify(platform.fake.apiUrl)}`,
          "      dmPolicy: open",
        ];
  return [
    `dataDir: ${JSON.stringify(join(dir, "data"))}`,
    "providers:",
    "  openai:",
    "    apiKey: sk-bench-00000000000000",
    `    baseUrl: ${JSON.stringify(context.model.url)}`,
    "agents:",
    "  - id: assistant",
    "    model: openai/gpt-4.1",
    "channels:",
    ...channel,
    "logging:",
    "  format: json",
    "",
  ].join("\n");
}

/** The id of the baseline Chorus build (`--chorus-baseline <checkout>`). */
export const CHORUS_BASELINE_ID = "chorus-baseline";

/** The real `chorus start`: SQLite store (the default), an agent on the fake model, one channel on the fake. */
export const chorusSystem: BenchSystem = chorusSystemAt(CHORUS_MAIN, "chorus", "Chorus (SQLite)");

/**
 * `chorus start` of another checkout (its `apps/bot/dist/main.js`, built there), run in the same rounds as this one's:
 * each round compares the two builds paired, slice by slice. Contract: throws at start when that file is missing.
 */
export function chorusBaselineSystem(checkout: string): BenchSystem {
  return chorusSystemAt(
    join(checkout, "apps", "bot", "dist", "main.js"),
    CHORUS_BASELINE_ID,
    "Chorus baseline (SQLite)",
  );
}

function chorusSystemAt(main: string, id: string, label: string): BenchSystem {
  return {
    id,
    label,
    expectedReply: (_text, key) => modelAnswer(key),
    async start(context: SystemContext): Promise<RunningSystem> {
      if (!existsSync(main)) throw new Error(`${label}: ${main} is not built (build that checkout first)`);
      const dir = await mkdtemp(join(tmpdir(), "chorus-bench-"));
      const forget = removeOnExit(dir);
      const slackPort = context.platform.name === "slack" ? await freePort() : 0;
      const configFile = join(dir, "chorus.config.yaml");
      await writeFile(configFile, chorusConfig(dir, context, slackPort));
      const startedAt = Date.now();
      const child = startChildBot(
        [...cpuProfileFlags(context.cpuProfileDir), main, "start", "--config", configFile],
        { HOME: dir },
        dir,
      );
      const cleanUp = async (): Promise<void> => {
        await child.stop();
        await rm(dir, { recursive: true, force: true });
        forget();
      };
      const platform = context.platform;
      let activate = async (): Promise<void> => {};
      try {
        await child.waitForLine(/"msg":"chorus started"/, READY_TIMEOUT_MS);
        if (platform.name === "slack") {
          const url = `http://127.0.0.1:${slackPort}/slack/events`;
          activate = async () => platform.fake.setEventsUrl(url);
        } else {
          // Chorus registered its own webhook while starting; remember it to point the fake back at it later.
          const own = platform.fake.callsTo("setWebhook").findLast((call) => call.at >= startedAt);
          const body = (own?.body ?? {}) as { url?: unknown; secret_token?: unknown };
          if (typeof body.url !== "string")
            throw new Error("chorus start did not call setWebhook on the fake Telegram");
          const url = body.url;
          const secret = typeof body.secret_token === "string" ? body.secret_token : "";
          activate = () => platform.setWebhook(url, secret);
        }
        await activate();
      } catch (error) {
        await cleanUp();
        throw error;
      }
      return { pid: child.pid, activate: () => activate(), stop: cleanUp };
    },
  };
}
