import { type CommandPermission, WHO } from "@chorus/gateway";

const GOAL_SETTER = "who started the goal, or an admin";

/** Who may use autonomy's commands, in a DM and in a group (a row each of docs/security.md's table). */
export const AUTONOMY_COMMAND_PERMISSIONS: readonly CommandPermission[] = [
  {
    use: "`/goal` (show), `/goal <text>`",
    examples: ["/goal", "/goal ship the release"],
    dm: WHO.anyone,
    group: WHO.anyone,
    guestInGroup: "allowed",
  },
  {
    use: "`/goal create --auto <text>`",
    examples: ["/goal create --auto write the report"],
    dm: "the tiers `goals.autonomousMinTier` allows (default admins)",
    group: "the tiers `goals.autonomousMinTier` allows (default admins)",
    guestInGroup: "refused",
  },
  {
    use: "`/goal stop\\|pause\\|resume [<id>]`, the goal buttons under `/agents`",
    examples: ["/goal pause", "/goal stop", "/goal resume"],
    dm: GOAL_SETTER,
    group: GOAL_SETTER,
    guestInGroup: "allowed",
  },
  {
    use: "`/done`, `/clear`",
    examples: ["/done", "/clear"],
    dm: `${WHO.anyone}; an autonomous goal: ${GOAL_SETTER}`,
    group: `${WHO.anyone}; an autonomous goal: ${GOAL_SETTER}`,
    guestInGroup: "allowed",
  },
  { use: "`/usage`", examples: ["/usage"], dm: WHO.admins, group: WHO.admins, guestInGroup: "refused" },
  { use: "`/schedule …`", examples: ["/schedule list"], dm: WHO.admins, group: WHO.admins, guestInGroup: "refused" },
];
