// @chorus/tools — public API.

// Built-in tools
export { type BuiltinToolsOptions, createBuiltinTools } from "./builtins/builtin-tools.js";
export { currentTimeTool } from "./builtins/current-time-tool.js";
export { execTool } from "./builtins/exec-tool.js";
export {
  editFileTool,
  globTool,
  grepTool,
  listDirTool,
  type ReadToolAccess,
  readFileTool,
  writeFileTool,
} from "./builtins/fs-tools.js";
export { setWorkingDirectoryTool } from "./builtins/set-working-directory-tool.js";
export { webFetchTool } from "./builtins/web-fetch-tool.js";
export { type ExecArgs, type ExecOptions, type ExecResult, execInWorkspace } from "./exec/exec-command.js";
export { killProcessGroup } from "./exec/process-group.js";
export { safeEnvironment } from "./exec/safe-environment.js";
export { effectiveCwd } from "./execution/effective-cwd.js";
export { RecentFileReads } from "./execution/recent-file-reads.js";
export { WorkingDirectories } from "./execution/working-directories.js";
export { editWorkspaceFile } from "./fs/edit-file.js";
export { globWorkspace } from "./fs/glob-files.js";
export { grepWorkspace } from "./fs/grep-files.js";
export { listWorkspaceDir } from "./fs/list-dir.js";
export { type ReadFileLimits, readFileRange } from "./fs/read-file.js";
export { ToolInputError } from "./fs/tool-input-error.js";
export { writeWorkspaceFile } from "./fs/write-file.js";
export { type ShellHookConfig, type ShellHooksConfig, shellHook, shellHooksOf } from "./hooks/shell-hook.js";
// MCP
export {
  type ConnectMcpOptions,
  connectMcpServers,
  type McpConnections,
  type McpServerStatus,
} from "./mcp/connect-mcp-servers.js";
export { curateMcpTools } from "./mcp/curate-mcp-tools.js";
export type { McpServerConfig } from "./mcp/mcp-server-config.js";
export { mcpToolName } from "./mcp/mcp-tool-name.js";
export {
  type McpServerState,
  type SupervisedMcpOptions,
  SupervisedMcpServer,
} from "./mcp/supervised-mcp-server.js";
// Tool policy, trust tiers, approvals
export { type ApprovalPolicyOptions, createApprovalPolicy } from "./policy/approval-policy.js";
export { createToolPolicyGate, type ToolPolicyGateOptions } from "./policy/policy-gate.js";
export {
  DEFAULT_TOOL_GROUPS,
  groupsOfTool,
  mergeToolGroups,
  type ToolGroup,
  type ToolGroupMap,
} from "./policy/tool-groups.js";
export { evaluateToolPolicy, type PolicyVerdict, type ToolPolicy } from "./policy/tool-policy.js";
export { DEFAULT_TIER_POLICIES, parseTrustTier, type TrustTier } from "./policy/trust-tiers.js";
export { loadSkills } from "./skills/load-skills.js";
export { loadedSkillsSource } from "./skills/loaded-skills-source.js";
export { type ParsedSkillFile, parseSkillFile } from "./skills/parse-skill-file.js";
export { chooseSkill } from "./skills/router/choose-skill.js";
export { creditSkillArm } from "./skills/router/credit-skill-arm.js";
export { sampleBeta } from "./skills/router/sample-beta.js";
export { seededRandom } from "./skills/router/seeded-random.js";
export { type RandomSource, SKILL_ARM_PRIOR, type SkillArm, type SkillOutcome } from "./skills/router/skill-arm.js";
export { skillHintLine } from "./skills/router/skill-hint-line.js";
export { skillOutcomeOf } from "./skills/router/skill-outcome-of.js";
export { createSkillTool, LOAD_SKILL_TOOL } from "./skills/skill-tool.js";
export type { Skill, SkillCatalog, SkillProblem } from "./skills/skill-types.js";
export { skillsPromptSection } from "./skills/skills-prompt.js";
// Sub-agents
export { processSubagentSlots, SubagentSlots } from "./subagents/concurrency-slots.js";
export { type CoreChildRunnerOptions, coreChildRunner } from "./subagents/core-child-runner.js";
export {
  createDepthDenyPolicy,
  depthDenyReason,
  SUBAGENT_DENY_ALWAYS,
  SUBAGENT_DENY_LEAF,
} from "./subagents/depth-deny-lists.js";
export { resolveSubagentLimits, SubagentConfigError, type SubagentLimits } from "./subagents/subagent-limits.js";
export type {
  ChildRunner,
  ChildRunOutcome,
  ChildRunRequest,
  SubagentEvent,
  SubagentProfile,
  SubagentResult,
  SubagentRunRecord,
  SubagentStatus,
} from "./subagents/subagent-types.js";
export { createSubagents, type SpawnArgs, type Subagents, type SubagentsOptions } from "./subagents/subagents.js";
export { describeCurrentTime } from "./time/current-time.js";
export { BlockedAddressError, type NetworkAllowance } from "./web/guarded-lookup.js";
export { isPrivateAddress } from "./web/private-address.js";
export { WebFetchError, type WebFetchOptions, type WebFetchResult, webFetch } from "./web/web-fetch.js";
export { type FittedOutput, fitOutput, LEGACY_OUTPUTS_DIR } from "./workspace/output-spill.js";
export { confineGuestsTo, type ReadConfinement, type ReadView, readableView } from "./workspace/read-confinement.js";
export {
  defaultSessionOutputs,
  isOutputHandle,
  OUTPUT_HANDLE_PREFIX,
  openSessionOutputs,
  resolveOutputHandle,
  type SessionOutputs,
  type SessionOutputsOptions,
  saveSessionOutput,
} from "./workspace/session-outputs.js";
export { WorkspaceEscapeError } from "./workspace/workspace-errors.js";
export { openWorkspace, resolveInWorkspace, type Workspace } from "./workspace/workspace-root.js";
