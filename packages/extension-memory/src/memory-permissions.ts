import { adminsOr, type CommandPermission, WHO } from "@chorus/gateway";

/** Who may use memory's commands, in a DM and in a group (a row each of docs/security.md's table). */
export const MEMORY_COMMAND_PERMISSIONS: readonly CommandPermission[] = [
  {
    use: "`/memory`, `/memory page N`, `/memory export`",
    examples: ["/memory", "/memory page 2", "/memory export"],
    dm: WHO.anyone,
    group: WHO.anyone,
    guestInGroup: "allowed",
  },
  {
    use: "`/memory forget <id\\|text>`",
    examples: ["/memory forget something"],
    dm: "who may write the chat's memory (trusted, owner)",
    group: "who may write the chat's memory (trusted, owner)",
    guestInGroup: "refused",
  },
  {
    use: "`/memory on`, `/memory off`",
    examples: ["/memory off", "/memory on"],
    dm: WHO.dmPerson,
    group: adminsOr("memory"),
    guestInGroup: "refused",
  },
  {
    use: "`/memory style`, `/memory style clear`",
    examples: ["/memory style", "/memory style clear"],
    dm: "anyone the bot answers, about themselves",
    group: "anyone the bot answers, about themselves (shown in a DM only)",
    guestInGroup: "allowed",
  },
  { use: "`/memory stats`", examples: ["/memory stats"], dm: WHO.admins, group: WHO.admins, guestInGroup: "refused" },
  {
    use: "`/memory misses`",
    examples: ["/memory misses"],
    dm: WHO.admins,
    group: "nobody (an admin is told to ask in a DM)",
    guestInGroup: "refused",
  },
];
