/** `prompt()` or `continue()` was called while the Agent is running. Use `steer` or `followUp`. */
export class AgentBusyError extends Error {
  override readonly name = "AgentBusyError";
  constructor(action: string) {
    super(`Agent is already running; ${action} is not allowed now (use steer() or followUp(), or await waitForIdle())`);
  }
}

/** `agentLoopContinue` / `Agent.continue()` got a context it cannot continue from. */
export class InvalidContinueError extends Error {
  override readonly name = "InvalidContinueError";
}

/** A tool definition is unusable (bad name, category or schema). */
export class InvalidToolDefinitionError extends Error {
  override readonly name = "InvalidToolDefinitionError";
  constructor(
    readonly toolName: string,
    problem: string,
  ) {
    super(`Invalid tool "${toolName}": ${problem}`);
  }
}

/** `approve` / `deny` named an approval that is not pending (already decided, timed out, or unknown). */
export class UnknownApprovalError extends Error {
  override readonly name = "UnknownApprovalError";
  constructor(readonly approvalId: string) {
    super(`No pending approval with id "${approvalId}"`);
  }
}

/** The Agent was configured with something it cannot use. */
export class InvalidAgentConfigError extends Error {
  override readonly name = "InvalidAgentConfigError";
}
