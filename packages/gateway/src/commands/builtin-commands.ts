import type { OutboundButton } from "@chorus/channel";
import { mayChangeSession, refusedChangeText, sessionChangeOf } from "../permissions/session-change-permission.js";
import { agentsCommand } from "./agents-command.js";
import { approveCommand, denyCommand } from "./approval-commands.js";
import type { CommandContext, CommandDefinition } from "./command-types.js";
import { modelCommand } from "./model-command.js";
import { pairCommand } from "./pair-command.js";
import { compactCommand, newCommand, queueCommand, resetCommand, stopCommand } from "./session-commands.js";
import { statusCommand } from "./status-command.js";

/** /help: what the sender can use (admin commands only for admins). */
export const helpCommand: CommandDefinition = {
  name: "help",
  usage: "/help",
  description: "list the commands",
  adminOnly: false,
  async run({ isAdmin, commands }) {
    return (commands ?? BUILTIN_COMMANDS)
      .filter((command) => isAdmin || !command.adminOnly)
      .map((command) => `- \`${command.usage}\`: ${command.description}`)
      .join("\n");
  },
};

/** Every builtin command, in /help order. */
export const BUILTIN_COMMANDS: readonly CommandDefinition[] = [
  helpCommand,
  newCommand,
  resetCommand,
  stopCommand,
  statusCommand,
  compactCommand,
  queueCommand,
  modelCommand,
  approveCommand,
  denyCommand,
  pairCommand,
  agentsCommand,
];

/** Where a command is typed, for `mayChangeSession`. */
export function placeOf(context: Pick<CommandContext, "message" | "membersMay">) {
  return { chatType: context.message.chatType, membersMay: context.membersMay };
}

/**
 * The outcome of running a command; `ephemeral` answers only the sender where the platform can; `buttons` go under
 * the answer where the platform has them.
 */
export type CommandOutcome =
  | {
      readonly kind: "reply";
      readonly text: string;
      readonly ephemeral: boolean;
      readonly buttons?: readonly OutboundButton[];
    }
  | { readonly kind: "refused"; readonly text: string; readonly ephemeral: true }
  | { readonly kind: "unknown" };

/**
 * Runs a builtin command before any agent sees the message. Admin-only commands from anyone else are refused
 * with "not authorised" (the caller logs the attempt); so is a change to a group's shared session (`/model <id>`,
 * `/queue <mode>`, `/memory off`, `/new`, `/compact`, an extension command's `sessionChange` such as `/plan`) from a
 * member the group does not grant it to (`mayChangeSession`) — `/stop` from such a member stops only what they started. The check is made here, where the
 * command is typed, before anything is forwarded to a session's owner. `commands`: the builtins and the extensions'
 * (default the builtins). Contract: `unknown` for a name that is none of them; a refusal changes nothing.
 */
export async function runBuiltinCommand(
  name: string,
  context: CommandContext,
  commands: readonly CommandDefinition[] = BUILTIN_COMMANDS,
): Promise<CommandOutcome> {
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) return { kind: "unknown" };
  if (command.adminOnly && !context.isAdmin) {
    return { kind: "refused", text: `You are not authorised to use /${name}.`, ephemeral: true };
  }
  const change = command.sessionChange?.(context.args) ?? sessionChangeOf(name, context.args);
  if (change !== undefined && change !== "stop" && !mayChangeSession(change, context, placeOf(context))) {
    return { kind: "refused", text: refusedChangeText(change), ephemeral: true };
  }
  const answer = await command.run(context);
  const ephemeral = command.ephemeral === true;
  if (typeof answer === "string") return { kind: "reply", text: answer, ephemeral };
  return {
    kind: "reply",
    text: answer.text,
    ephemeral,
    ...(answer.buttons.length === 0 ? {} : { buttons: answer.buttons }),
  };
}
