import { queueModeSchema } from "../config/gateway-config-schema.js";
import type { CommandDefinition } from "./command-types.js";

/** /new and /reset: a fresh conversation (nothing is deleted; the transcript starts over). */
export const newCommand: CommandDefinition = {
  name: "new",
  usage: "/new",
  description: "start a new conversation",
  adminOnly: false,
  async run({ host, sessionKey }) {
    await host.newSession(sessionKey);
    return "Started a new conversation.";
  },
};

/** /reset: the same as /new. */
export const resetCommand: CommandDefinition = { ...newCommand, name: "reset", usage: "/reset" };

/** /stop: the run, its sub-agents and the queue. */
export const stopCommand: CommandDefinition = {
  name: "stop",
  usage: "/stop",
  description: "stop the current task and its sub-agents",
  adminOnly: false,
  async run({ host, sessionKey }) {
    const { stopped, dropped } = await host.stopSession(sessionKey);
    if (!stopped && dropped === 0) return "Nothing is running.";
    const queued = dropped > 0 ? ` and dropped ${dropped} waiting message(s)` : "";
    return `Stopped${stopped ? " the current task" : ""}${queued}.`;
  },
};

/** /compact: summarise older messages now. */
export const compactCommand: CommandDefinition = {
  name: "compact",
  usage: "/compact",
  description: "summarise older messages to free context",
  adminOnly: false,
  run: ({ host, sessionKey }) => host.compactSession(sessionKey),
};

/** /queue <mode>: how messages that arrive while a task runs are handled, for this chat. */
export const queueCommand: CommandDefinition = {
  name: "queue",
  usage: "/queue steer|followup|collect|interrupt",
  description: "set how messages sent during a task are handled",
  adminOnly: false,
  async run({ host, sessionKey, args }) {
    const parsed = queueModeSchema.safeParse(args[0]);
    if (!parsed.success) {
      const status = await host.status(sessionKey);
      return `Queue mode is ${status.queueMode}. Use /queue steer, followup, collect or interrupt.`;
    }
    await host.setQueueMode(sessionKey, parsed.data);
    return `Queue mode set to ${parsed.data}.`;
  },
};
