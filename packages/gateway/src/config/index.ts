export { type BindingTier, bindingTier, describeMatch } from "./binding-specificity.js";
export { type BudgetConfig, budgetConfigSchema } from "./budget-config.js";
export { type ConfigIssue, formatConfigPath, GatewayConfigError } from "./gateway-config-error.js";
export {
  type AgentConfig,
  agentConfigSchema,
  type Binding,
  type BindingMatch,
  bindingMatchSchema,
  bindingSchema,
  type ChannelPolicyEntry,
  type ChannelPolicyEntryInput,
  channelPolicyEntrySchema,
  type DmPolicy,
  dmPolicySchema,
  type GatewayConfig,
  type GatewayConfigInput,
  type GroupConfig,
  type GroupPolicy,
  type GroupTrust,
  gatewayConfigSchema,
  groupConfigSchema,
  groupPolicySchema,
  groupTrustSchema,
  queueModeSchema,
  type SubagentLimits,
  subagentLimitsSchema,
  type ToolPolicyConfig,
  toolPolicySchema,
} from "./gateway-config-schema.js";
export {
  DEFAULT_COMPLETION_PHRASES,
  GOAL_DEFAULTS,
  type GoalConfig,
  type GoalConfigInput,
  goalConfigSchema,
} from "./goal-config.js";
export { loadGatewayConfig, type ParseGatewayConfigResult, parseGatewayConfig } from "./load-gateway-config.js";
export { CHANNEL_POLICY_DEFAULTS, type ChannelPolicy, resolveChannelPolicy } from "./resolve-channel-policy.js";
