import { type CommandPermission, WHO } from "../permissions/command-permission-table.js";

/** Who may use skills's commands, in a DM and in a group (a row each of docs/security.md's table). */
export const SKILLS_COMMAND_PERMISSIONS: readonly CommandPermission[] = [
  { use: "`/skills`", examples: ["/skills"], dm: WHO.anyone, group: WHO.anyone, guestInGroup: "allowed" },
];
