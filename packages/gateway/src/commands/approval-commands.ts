import type { CommandContext, CommandDefinition } from "./command-types.js";

function answer(approve: boolean) {
  return async ({ host, args, message, isAdmin }: CommandContext): Promise<string> => {
    const code = args[0];
    if (code === undefined) return `Usage: /${approve ? "approve" : "deny"} <code>`;
    const outcome = await host.answerApproval(code, approve, {
      channel: message.channel,
      accountId: message.accountId,
      senderId: message.sender.id,
      senderName: message.sender.name,
      isAdmin,
    });
    return outcome.text;
  };
}

/** /approve <code>: lets a waiting tool call run (the person who asked, or an admin). */
export const approveCommand: CommandDefinition = {
  name: "approve",
  usage: "/approve <code>",
  description: "let a tool call that waits for approval run",
  adminOnly: false,
  run: answer(true),
};

/** /deny <code>: refuses a waiting tool call (the person who asked, or an admin). */
export const denyCommand: CommandDefinition = {
  name: "deny",
  usage: "/deny <code>",
  description: "refuse a tool call that waits for approval",
  adminOnly: false,
  run: answer(false),
};
