import { BotConfigError } from "./bot-config-error.js";
import type { BotConfig } from "./bot-config-schema.js";
import { defaultConfigFromEnv } from "./default-config.js";
import { findConfigFile } from "./find-config-file.js";
import { loadBotConfigFile, parseBotConfig } from "./load-bot-config.js";

/** The configuration to run with, where it came from, and (without a file) how the model was chosen. */
export interface ResolvedBotConfig {
  readonly config: BotConfig;
  /** The file path, or "(no config file: defaults from the environment)". */
  readonly source: string;
  /** The file path when there is one (watched for reloads). */
  readonly file?: string;
  readonly modelExplanation?: string;
}

/** The source shown when there is no config file. */
export const DEFAULTS_SOURCE = "(no config file: defaults from the environment)";

/**
 * The configuration for `chorus start` / `doctor` / `chat`: the given or found file, else defaults from the
 * environment (WebChat, one agent on the best available model, platforms whose tokens are set).
 * Contract: rejects with BotConfigError for a bad file; the defaults always validate.
 */
export async function resolveBotConfig(options: {
  configPath: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<ResolvedBotConfig> {
  const file = findConfigFile(options.configPath, options.cwd, options.env);
  if (file !== undefined) {
    const loaded = await loadBotConfigFile(file, options.env);
    return { config: loaded.config, source: file, file };
  }
  const { input, choice } = defaultConfigFromEnv(options.env);
  const parsed = parseBotConfig(input);
  if (!parsed.ok) throw new BotConfigError(DEFAULTS_SOURCE, parsed.issues);
  return { config: parsed.config, source: DEFAULTS_SOURCE, modelExplanation: choice.explanation };
}
