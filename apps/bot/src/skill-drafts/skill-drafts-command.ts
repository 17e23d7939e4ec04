import { type CommandPermission, type ExtensionCommand, WHO } from "@chorus/gateway";
import { approveDraft, listPendingDrafts, rejectDraft } from "./pending-skill-drafts.js";
import { SkillDraftError } from "./skill-draft-error.js";

const USAGE = "/skilldrafts [pending | approve <name> | reject <name>]";

/** Who may use `/skilldrafts` (rows of docs/security.md's table when the bot composes the drafter). */
export const skillDraftsPermissions: readonly CommandPermission[] = [
  { use: "`/skilldrafts`", examples: ["/skilldrafts"], dm: WHO.admins, group: WHO.admins, guestInGroup: "refused" },
  {
    use: "`/skilldrafts approve|reject <name>`",
    examples: ["/skilldrafts approve some-draft"],
    dm: WHO.admins,
    group: "no one (a DM only)",
    guestInGroup: "refused",
  },
];

/**
 * `/skilldrafts`: the drafts waiting for review (admins); `approve <name>` moves one into the agent's skills (loaded
 * at the next start) and `reject <name>` deletes it — both only in a DM, so a draft is read before it is approved.
 * Contract: admins only (the gateway refuses anyone else before `run`); a bad or unknown name is answered with why,
 * never touching a path outside `<skills>/.pending`.
 */
export function skillDraftsCommand(skillsDirOf: (agentId: string) => string | undefined): ExtensionCommand {
  return {
    name: "skilldrafts",
    usage: USAGE,
    description: "review the skills drafted from repeated tasks",
    adminOnly: true,
    async run({ agentId, args, message }) {
      const skillsDir = skillsDirOf(agentId);
      if (skillsDir === undefined) return "This agent drafts no skills.";
      const [action = "pending", name = ""] = args;
      if (action === "pending") {
        const drafts = await listPendingDrafts(skillsDir);
        if (drafts.length === 0) return "No skill drafts wait for review.";
        return [
          `**Skill drafts waiting for review** (${drafts.length})`,
          ...drafts.map((draft) => `- **${draft.name}**: ${draft.description}`),
          "Approve one with `/skilldrafts approve <name>` in a DM, or delete it with `/skilldrafts reject <name>`.",
        ].join("\n");
      }
      if (action !== "approve" && action !== "reject") return `Usage: ${USAGE}`;
      if (message.chatType !== "dm") return "Approve or reject skill drafts in a direct message with the bot.";
      try {
        if (action === "approve") {
          await approveDraft(skillsDir, name);
          return `Approved **${name}**: it is one of the agent's skills from the next start.`;
        }
        await rejectDraft(skillsDir, name);
        return `Rejected **${name}**: the draft is deleted.`;
      } catch (error) {
        if (error instanceof SkillDraftError) return error.message;
        throw error;
      }
    },
  };
}
