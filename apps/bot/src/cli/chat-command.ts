import { dirname } from "node:path";
import { describeError } from "@chorus/gateway";
import { BotConfigError } from "../config/bot-config-error.js";
import { secretsOf } from "../config/config-secrets.js";
import { resolveBotConfig } from "../config/resolve-bot-config.js";
import { createBotLogger } from "../logging/bot-logger.js";
import { BotRuntime } from "../runtime/bot-runtime.js";
import { TERMINAL_USER_ID, TerminalChannel } from "../terminal/terminal-channel.js";
import type { CliIo } from "./cli-io.js";

/**
 * `chorus chat`: a conversation with the default agent in this terminal, with the configured models and tools.
 * Platform channels and WebChat are not started and the transcript is kept in memory, so it runs beside a
 * running `chorus start`. Contract: resolves with 0 when the input ends (Ctrl-D) or on Ctrl-C.
 */
export async function chatCommand(io: CliIo, configPath: string | undefined): Promise<number> {
  let resolved: Awaited<ReturnType<typeof resolveBotConfig>>;
  try {
    resolved = await resolveBotConfig({ configPath, cwd: io.cwd, env: io.env });
  } catch (error) {
    io.stderr.write(`${error instanceof BotConfigError ? error.message : describeError(error)}\n`);
    return 1;
  }
  const config = {
    ...resolved.config,
    channels: { discord: [], slack: [], telegram: [], webchat: [] },
    store: { kind: "memory" as const },
  };
  const logger = createBotLogger({
    level: "warn",
    format: "pretty",
    secrets: secretsOf(config),
    destination: io.stderr,
    isTTY: false,
  });
  const terminal = new TerminalChannel({ input: io.stdin, output: io.stdout });
  const runtime = new BotRuntime({
    config,
    source: resolved.source,
    logger,
    // Relative paths in a config file (dataDir, store.path) are relative to the file.
    cwd: resolved.file === undefined ? io.cwd : dirname(resolved.file),
    extraChannels: [
      { key: "terminal/local", kind: "terminal", accountId: "local", fingerprint: "terminal", create: () => terminal },
    ],
    extraPolicies: [{ channel: "terminal", admins: [TERMINAL_USER_ID], dmPolicy: "open" }],
  });
  const agent = config.agents.find((item) => item.id === config.defaultAgent) ?? config.agents[0];
  io.stdout.write(
    `Chorus chat with ${agent?.id ?? "?"} (model ${agent?.model ?? "?"}). Type a message; /help lists commands; Ctrl-D quits.\n`,
  );
  if (resolved.modelExplanation !== undefined) io.stdout.write(`${resolved.modelExplanation}\n`);
  await runtime.start();
  let onInterrupt = (): void => {};
  const interrupted = new Promise<void>((resolve) => {
    onInterrupt = () => resolve();
  });
  process.once("SIGINT", onInterrupt);
  await Promise.race([terminal.closed, interrupted]);
  process.off("SIGINT", onInterrupt);
  // Let a reply that is on its way be printed before leaving.
  await runtime.gateway?.idle();
  await runtime.shutdown();
  io.stdout.write("\n");
  return 0;
}
