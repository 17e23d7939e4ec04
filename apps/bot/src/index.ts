// @chorus/bot: the runnable gateway. The CLI is the product; these exports let programs embed or test it.

export { runCli } from "./cli/run-cli.js";
export { BotConfigError, type BotConfigIssue } from "./config/bot-config-error.js";
export {
  type BotConfig,
  type BotConfigInput,
  botConfigSchema,
  type ChannelKind,
} from "./config/bot-config-schema.js";
export { botConfigJsonSchema } from "./config/config-json-schema.js";
export { chooseModelFromEnv, defaultConfigFromEnv, type ModelChoice } from "./config/default-config.js";
export { interpolateEnv } from "./config/env-interpolation.js";
export { loadBotConfigFile, parseBotConfig } from "./config/load-bot-config.js";
export { resolveBotConfig } from "./config/resolve-bot-config.js";
export { demoModel, demoStreamFn } from "./demo/demo-model.js";
export { demoTurn } from "./demo/demo-script.js";
export { createBotLogger } from "./logging/bot-logger.js";
export { BotRuntime, type BotRuntimeOptions } from "./runtime/bot-runtime.js";
export { WebchatChannel, type WebchatChannelOptions } from "./webchat/webchat-channel.js";
