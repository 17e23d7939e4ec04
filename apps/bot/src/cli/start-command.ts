import { dirname } from "node:path";
import { describeError } from "@chorus/gateway";
import { BotConfigError } from "../config/bot-config-error.js";
import { secretsOf } from "../config/config-secrets.js";
import { resolveBotConfig } from "../config/resolve-bot-config.js";
import { createBotLogger } from "../logging/bot-logger.js";
import { BotRuntime } from "../runtime/bot-runtime.js";
import { ConfigReloader } from "../runtime/config-reloader.js";
import { startBotTelemetry } from "../telemetry/bot-telemetry.js";
import { telemetrySettingsOf } from "../telemetry/telemetry-env.js";
import type { CliIo } from "./cli-io.js";

/**
 * `chorus start`: runs the gateway until SIGINT/SIGTERM, reloading the config on SIGHUP or when the file changes.
 * Contract: resolves with the exit code: 0 after a clean shutdown, 1 when the bot cannot start; a second signal
 * during shutdown exits at once with 130.
 */
export async function startCommand(io: CliIo, configPath: string | undefined): Promise<number> {
  let resolved: Awaited<ReturnType<typeof resolveBotConfig>>;
  try {
    resolved = await resolveBotConfig({ configPath, cwd: io.cwd, env: io.env });
  } catch (error) {
    io.stderr.write(`${error instanceof BotConfigError ? error.message : describeError(error)}\n`);
    return 1;
  }
  const { config } = resolved;
  const settings = telemetrySettingsOf(io.env);
  const telemetry = startBotTelemetry(settings);
  const logger = createBotLogger({
    level: config.logging.level,
    format: config.logging.format,
    secrets: secretsOf(config),
  });
  const runtime = new BotRuntime({
    config,
    source: resolved.source,
    logger,
    // Relative paths in a config file (dataDir, store.path) are relative to the file.
    cwd: resolved.file === undefined ? io.cwd : dirname(resolved.file),
    ...(resolved.modelExplanation === undefined ? {} : { modelExplanation: resolved.modelExplanation }),
    ...(telemetry.metricsHandler === undefined ? {} : { metrics: telemetry.metricsHandler }),
    telemetry: { sessionKeys: settings.sessionKeys, captureContent: settings.captureContent },
  });
  // Signal handlers go in before start: "chorus started" is printed inside start(), and a SIGHUP that
  // arrives between that line and a later handler would kill the process (SIGHUP's default action).
  let reloader: ConfigReloader | undefined;
  let reloadRequested = false;
  const onHup = (): void => {
    if (resolved.file === undefined) logger.warn("SIGHUP ignored: there is no config file to reload");
    else if (reloader === undefined) reloadRequested = true;
    else void reloader.reload();
  };
  process.on("SIGHUP", onHup);
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  try {
    await runtime.start();
  } catch (error) {
    logger.fatal({ error: describeError(error) }, "chorus could not start");
    await runtime.shutdown().catch(() => {});
    await telemetry.shutdown();
    process.off("SIGHUP", onHup);
    return 1;
  }
  io.stderr.write(`${runtime.banner()}\n`);
  if (resolved.modelExplanation !== undefined) logger.info(resolved.modelExplanation);

  if (resolved.file !== undefined) {
    reloader = new ConfigReloader({ file: resolved.file, target: runtime, logger, env: io.env });
    reloader.watch();
    if (reloadRequested) void reloader.reload();
  }

  const signal = await stopSignal;
  logger.info({ signal }, "signal received: shutting down gracefully (send it again to exit at once)");
  const force = (): void => process.exit(130);
  process.once("SIGINT", force);
  process.once("SIGTERM", force);
  process.off("SIGHUP", onHup);
  reloader?.close();
  await runtime.shutdown();
  await telemetry.shutdown();
  return 0;
}
