import { adminsOr, type CommandPermission, WHO } from "@chorus/gateway";

/** Who may use plan-mode's commands, in a DM and in a group (a row each of docs/security.md's table). */
export const PLAN_MODE_COMMAND_PERMISSIONS: readonly CommandPermission[] = [
  {
    use: "`/plan`, `/plan off`",
    examples: ["/plan", "/plan off"],
    dm: WHO.dmPerson,
    group: adminsOr("plan"),
    guestInGroup: "refused",
  },
  {
    use: "`/plan approve`, `/plan reject [feedback]`, a plan's Approve / Reject buttons",
    examples: ["/plan approve", "/plan reject do it differently"],
    dm: WHO.starter,
    group: WHO.starter,
    guestInGroup: "allowed",
  },
];
