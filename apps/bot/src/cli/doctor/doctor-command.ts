import { dirname } from "node:path";
import { BotConfigError } from "../../config/bot-config-error.js";
import { resolveBotConfig } from "../../config/resolve-bot-config.js";
import type { CliIo } from "../cli-io.js";
import { checkChannelTokens } from "./check-channel-tokens.js";
import { checkMcpServers } from "./check-mcp-servers.js";
import { checkProviders } from "./check-providers.js";
import { checkStore } from "./check-store.js";
import { checkWebchat } from "./check-webchat.js";
import { type DoctorCheck, formatCheck } from "./doctor-check.js";

/**
 * `chorus doctor`: validates the config, checks each channel token and provider key with a real authentication
 * call, checks the store, the WebChat port and each agent's MCP servers (connected, tools listed); one PASS/FAIL line each.
 * Contract: resolves with 0 when every check passed, else 1.
 */
export async function doctorCommand(io: CliIo, configPath: string | undefined): Promise<number> {
  const checks: DoctorCheck[] = [];
  const print = (): void => {
    const width = Math.max(...checks.map((check) => check.name.length));
    for (const check of checks) io.stdout.write(`${formatCheck(check, width)}\n`);
  };
  let resolved: Awaited<ReturnType<typeof resolveBotConfig>>;
  try {
    resolved = await resolveBotConfig({ configPath, cwd: io.cwd, env: io.env });
  } catch (error) {
    const detail = error instanceof BotConfigError ? error.message : String(error);
    checks.push({ name: "config", ok: false, detail });
    print();
    return 1;
  }
  const { config } = resolved;
  checks.push({
    name: "config",
    ok: true,
    detail:
      resolved.file === undefined
        ? `no config file: defaults from the environment (${config.agents.length} agent); ${resolved.modelExplanation ?? ""}`
        : `${resolved.file} is valid (${config.agents.length} agent(s))`,
  });
  const configDir = resolved.file === undefined ? io.cwd : dirname(resolved.file);
  const [store, channels, providers, webchat, mcp] = await Promise.all([
    checkStore(config, configDir),
    checkChannelTokens(config),
    checkProviders(config),
    checkWebchat(config),
    checkMcpServers(config, configDir),
  ]);
  checks.push(store, ...channels, ...providers, ...webchat, ...mcp);
  print();
  const failed = checks.filter((check) => !check.ok).length;
  io.stdout.write(failed === 0 ? "\nAll checks passed.\n" : `\n${failed} check(s) failed.\n`);
  return failed === 0 ? 0 : 1;
}
