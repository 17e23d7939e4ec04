import type { OutboundButton } from "@chorus/channel";
import type { AgentsSection, ExtensionCommand, ExtensionCommandContext, ExtensionReply } from "../extension/index.js";
import type { CommandContext, CommandDefinition } from "./command-types.js";

/** What an extension's handler sees of a command's context: never the gateway's own host. */
export function extensionContextOf(context: CommandContext): ExtensionCommandContext {
  return {
    message: context.message,
    sessionKey: context.sessionKey,
    agentId: context.agentId,
    isAdmin: context.isAdmin,
    trust: context.trust,
    args: context.args,
  };
}

/**
 * An extension's command as a command the intake runs (the admin and session-change checks and the failure answer are
 * the builtins'); an `atOwner` one goes through the host to the session's owner where the host can.
 */
export function extensionCommandDefinition(command: ExtensionCommand): CommandDefinition {
  return {
    name: command.name,
    usage: command.usage,
    description: command.description,
    adminOnly: command.adminOnly,
    ...(command.ephemeral === undefined ? {} : { ephemeral: command.ephemeral }),
    sessionChange: (args) => command.sessionChange?.(args),
    run: (context) => {
      const extensionContext = extensionContextOf(context);
      const atOwner = command.atOwner === true ? context.host.extensionAtOwner : undefined;
      return atOwner === undefined ? command.run(extensionContext) : atOwner(command.name, extensionContext);
    },
  };
}

/**
 * Runs the named extension command here (at the session's owner). Contract: resolves with its answer; an unknown name
 * (an instance whose extensions differ) is answered with a sentence saying so.
 */
export async function runExtensionCommandHere(
  commands: readonly ExtensionCommand[],
  name: string,
  context: ExtensionCommandContext,
): Promise<string | ExtensionReply> {
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) return `The instance running this chat has no /${name} command.`;
  return command.run(context);
}

/**
 * The extensions' `/agents` sections rendered under the fleet. Contract: a section that throws shows one line saying
 * so; the others still show.
 */
export async function renderAgentsSections(
  sections: readonly AgentsSection[],
  now: number,
): Promise<{ lines: string[]; buttons: OutboundButton[] }> {
  const lines: string[] = [];
  const buttons: OutboundButton[] = [];
  for (const section of sections) {
    try {
      const shown = await section.render({ now });
      lines.push("", typeof shown === "string" ? shown : shown.text);
      if (typeof shown !== "string") buttons.push(...shown.buttons);
    } catch {
      lines.push("", `_The ${section.name} section could not be shown._`);
    }
  }
  return { lines, buttons };
}
