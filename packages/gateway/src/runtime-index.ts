// The gateway runtime: the Gateway and the pieces it is built from.
export {
  type ApprovalAnswerBy,
  type ApprovalAnswerer,
  type ApprovalAnswerOutcome,
  ApprovalDesk,
  type ApprovalDeskDeps,
  type ApprovalRequestInput,
  type PostedNotice,
} from "./approvals/approval-desk.js";
export {
  type ApprovalQuestion,
  type ApprovalSettlement,
  approvalButtons,
  approvalRequestText,
  approvalSettledText,
  approvalTimedOutText,
} from "./approvals/approval-message.js";
export { BUILTIN_COMMANDS, type CommandOutcome, helpCommand, runBuiltinCommand } from "./commands/builtin-commands.js";
export type {
  CommandContext,
  CommandDefinition,
  CommandHost,
  ModelSwitch,
  SessionStatus,
} from "./commands/command-types.js";
export { answerInteraction } from "./commands/interaction-reply.js";
export { type ParsedCommand, parseCommand } from "./commands/parse-command.js";
export {
  OutboxDispatcher,
  type OutboxDispatcherOptions,
  PermanentDeliveryError,
} from "./delivery/outbox-dispatcher.js";
export {
  asChatPayload,
  asSubagentResultPayload,
  type ChatDeliveryPayload,
  type OutboxFile,
  type SubagentResultPayload,
} from "./delivery/outbox-payloads.js";
export {
  buildFleetView,
  type FleetAgent,
  type FleetInput,
  type FleetRunNode,
  type FleetView,
} from "./fleet/fleet-view.js";
export { describeRun, renderFleet, treePrefix } from "./fleet/render-fleet.js";
export { type LiveRun, RunTracker } from "./fleet/run-tracker.js";
export { formatAge, formatCost } from "./formatting/format-age-and-cost.js";
export type { ClusterRequest } from "./gateway/cluster-request.js";
export { Gateway } from "./gateway/gateway.js";
export {
  type AgentRuntimeSetup,
  GATEWAY_DEFAULTS,
  type GatewayOptions,
  type ModelCatalog,
} from "./gateway/gateway-options.js";
export { inboundUserMessage } from "./gateway/inbound-user-message.js";
export { RESTART_TOOL_RESULT } from "./gateway/restart-repair.js";
export { SessionRateCap } from "./gateway/session-rate-cap.js";
export type { SessionChat } from "./gateway/session-runtime-deps.js";
export { DEFAULT_TURN_START_RETRY, type TurnStartRetryOptions } from "./gateway/turn-start-retry.js";
export {
  HOUSEKEEPING_DEFAULTS,
  type HousekeepingSweep,
  StoreHousekeeper,
  type StoreHousekeepingOptions,
} from "./housekeeping/store-housekeeper.js";
export { type AdmissionCandidate, FairAdmission } from "./lanes/fair-admission.js";
export { type LaneHost, type LaneItem, lowerTier } from "./lanes/lane-item.js";
export { SessionLane, type SessionLaneOptions } from "./lanes/session-lane.js";
export { describeError, type GatewayLogger, SILENT_LOGGER } from "./logging/gateway-logger.js";
export {
  adminsOr,
  BUILTIN_COMMAND_PERMISSIONS,
  type CommandPermission,
  commandPermissionsOf,
  type GuestInGroup,
  renderCommandPermissionTable,
  WHO,
} from "./permissions/command-permission-table.js";
export {
  mayAnswerRun,
  mayChangeSession,
  type RunAnswerBy,
  type SessionActor,
  type StopBy,
} from "./permissions/session-change-permission.js";
export { assistantText, hasToolCalls } from "./reply-manager/assistant-text.js";
export type { CommitSideWrites } from "./reply-manager/commit-side-writes.js";
export { endNotice, type RunStopCause, retryNotice } from "./reply-manager/failure-notice.js";
export { ReplyManager, type ReplyManagerOptions, type ReplyMode } from "./reply-manager/reply-manager.js";
export { runStatusOf, TurnCommitter, type TurnCommitterOptions } from "./reply-manager/turn-committer.js";
export { sessionChatOf } from "./routing/session-chat-of.js";
export { type GatewayChildRunnerOptions, gatewayChildRunner } from "./subagent-sessions/gateway-child-runner.js";
export { subagentResultMessage } from "./subagent-sessions/subagent-result-message.js";
export { type SessionKeyMode, sessionKeyAttribute } from "./telemetry/session-key-hash.js";
export type { GatewayTelemetryOptions } from "./telemetry/telemetry-options.js";
export { MAX_TITLE_LENGTH, titleFromText } from "./titles/session-title.js";
export type { SessionTurnEnd, SessionTurnHooks } from "./turn-hooks/session-turn-hooks.js";
export { userInputText } from "./turn-hooks/user-input-text.js";
