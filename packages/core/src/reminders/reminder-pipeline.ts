import type { AgentMessage } from "../messages/message-types.js";
import type { ApprovalDecision, ApprovalRequest } from "../policies/policy-types.js";
import type { ApprovalOutcome, Reminder, RemindersConfig, SystemReminderMessage } from "./reminder-types.js";
import { systemReminderMessage } from "./system-reminder-message.js";

/** ATTACHMENT_TIMEOUT of seed 004. */
export const DEFAULT_REMINDER_TIMEOUT_MS = 1000;

/**
 * Collects a run's reminders before each model call (seed 004's attachment pipeline): every
 * source at once, bounded by the timeout; a failing or late source adds nothing.
 * Contract: never throws; undefined when there is nothing to say.
 */
export class ReminderPipeline {
  readonly #config: RemindersConfig;
  #approvals: ApprovalOutcome[] = [];
  readonly #onError: (error: unknown) => void;

  constructor(config: RemindersConfig, onError: (error: unknown) => void = () => {}) {
    this.#config = config;
    this.#onError = onError;
  }

  /** Wraps the app's approval answerer so outcomes reach the `approvals` of the next collection. */
  watchApprovals(
    awaitApproval: ((request: ApprovalRequest) => Promise<ApprovalDecision>) | undefined,
  ): ((request: ApprovalRequest) => Promise<ApprovalDecision>) | undefined {
    if (!awaitApproval) return undefined;
    return async (request) => {
      const decision = await awaitApproval(request);
      const outcome: ApprovalOutcome = { toolCall: request.toolCall, approved: decision.approved };
      if (!decision.approved && decision.reason !== undefined) outcome.reason = decision.reason;
      this.#approvals.push(outcome);
      return decision;
    };
  }

  async collect(
    messages: readonly AgentMessage[],
    turn: number,
    signal: AbortSignal,
  ): Promise<SystemReminderMessage | undefined> {
    const approvals = this.#approvals.splice(0);
    const context = { messages, turn, approvals, signal };
    const timeoutMs = this.#config.timeoutMs ?? DEFAULT_REMINDER_TIMEOUT_MS;
    const runs = this.#config.sources.map(async (source): Promise<Reminder[]> => {
      try {
        return await source(context);
      } catch (error) {
        this.#onError(error);
        return [];
      }
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), timeoutMs);
    });
    const settled = runs.map((run) => Promise.race([run, late]));
    try {
      const results = await Promise.all(settled);
      const reminders: Reminder[] = [];
      for (const result of results) if (result !== "late") reminders.push(...result.filter((r) => r.text.length > 0));
      if (reminders.length === 0) return undefined;
      return systemReminderMessage(reminders, Date.now());
    } finally {
      clearTimeout(timer);
    }
  }
}
