import { queueModeSchema } from "../config/gateway-config-schema.js";
import { mayChangeSession } from "../permissions/session-change-permission.js";
import type { CommandContext, CommandDefinition } from "./command-types.js";

/** Who types a command, as a session actor. */
function actorOf({ message, isAdmin }: CommandContext) {
  return { senderId: message.sender.id, isAdmin };
}

/** /new and /reset: a fresh conversation (nothing is deleted; the transcript starts over). */
export const newCommand: CommandDefinition = {
  name: "new",
  usage: "/new",
  description: "start a new conversation",
  adminOnly: false,
  async run(context) {
    const refused = await context.host.newSession(context.sessionKey, actorOf(context));
    return refused ?? "Started a new conversation.";
  },
};

/** /reset: the same as /new. */
export const resetCommand: CommandDefinition = { ...newCommand, name: "reset", usage: "/reset" };

/**
 * /stop: the run, its sub-agents and the queue — in a group, for a member the group does not grant `stop`, only what
 * they started (their waiting messages, a run only their messages started).
 */
export const stopCommand: CommandDefinition = {
  name: "stop",
  usage: "/stop",
  description: "stop the current task and its sub-agents",
  adminOnly: false,
  async run(context) {
    const { host, sessionKey, message, membersMay } = context;
    const all = mayChangeSession("stop", context, { chatType: message.chatType, membersMay });
    const { stopped, dropped, goalKept } = await host.stopSession(sessionKey, {
      ...actorOf(context),
      scope: all ? "all" : "own",
    });
    const kept =
      goalKept === true ? " The autonomous goal here runs on: only who started it or an admin can stop it." : "";
    if (!stopped && dropped === 0) {
      return all
        ? `Nothing is running.${kept}`
        : `Nothing of yours is running here; only an admin can stop the rest.${kept}`;
    }
    const queued = dropped > 0 ? ` and dropped ${dropped} waiting message(s)` : "";
    return `Stopped${stopped ? " the current task" : ""}${queued}.${kept}`;
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
