import type { CommandDefinition } from "./command-types.js";

/** /pair approve|deny <code>, /pair list: admins decide who may DM the bot. */
export const pairCommand: CommandDefinition = {
  name: "pair",
  usage: "/pair approve|deny <code> · /pair list",
  description: "approve or deny DM pairing requests",
  adminOnly: true,
  ephemeral: true,
  async run({ host, scope, args }) {
    const [action, code] = args;
    if (action === "list") {
      const pending = await host.pairing.list(scope);
      if (pending.length === 0) return "No pairing requests are waiting.";
      return pending.map((r) => `- \`${r.code}\` ${r.senderName} (${r.senderId})`).join("\n");
    }
    if ((action === "approve" || action === "deny") && code !== undefined) {
      const outcome =
        action === "approve" ? await host.pairing.approve(scope, code) : await host.pairing.deny(scope, code);
      if (!outcome.ok)
        return outcome.reason === "expired" ? `Code ${code} has expired.` : `No pairing request has code ${code}.`;
      const who = `${outcome.request.senderName} (${outcome.request.senderId})`;
      return action === "approve" ? `Approved ${who}: they can talk to me now.` : `Denied ${who}.`;
    }
    return "Usage: /pair approve <code>, /pair deny <code>, /pair list";
  },
};
