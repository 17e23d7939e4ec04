/**
 * What a guest in a group who started nothing gets from a command or button, as the table promises: refused with a
 * sentence, allowed (an answer rule may still find nothing of theirs to answer), or only what they started (`/stop`).
 */
export type GuestInGroup = "allowed" | "refused" | "own";

/** One row of "who may use each command": a builtin command, a form of one, or a button (which carries one). */
export interface CommandPermission {
  /** What is typed or pressed, as shown in docs/security.md. */
  readonly use: string;
  /** The commands a guest in a group types (or the buttons carry) when the table is walked by a test. */
  readonly examples: readonly string[];
  /** Who may use it in a DM. */
  readonly dm: string;
  /** Who may use it in a group. */
  readonly group: string;
  readonly guestInGroup: GuestInGroup;
}

const ANYONE = "anyone the bot answers";
const DM_PERSON = "the DM's person";
const ADMINS = "admins";
const STARTER = "who started the run, or an admin";
const GOAL_SETTER = "who started the goal, or an admin";

/** Group admins, or members where the group grants the change (`membersMay`). */
function adminsOr(change: string): string {
  return `admins; members if the group grants \`${change}\``;
}

/**
 * Who may use every builtin command and button, in a DM and in a group: the rules `runBuiltinCommand`
 * (`adminOnly`, `mayChangeSession`), the approval desk and plan mode (`mayAnswerRun`) and the goal commands apply.
 * docs/security.md shows it as rendered by `renderCommandPermissionTable`; a test walks it as a guest in a group.
 * Contract: every builtin command appears in at least one row's `examples`.
 */
export const COMMAND_PERMISSIONS: readonly CommandPermission[] = [
  { use: "`/help`", examples: ["/help"], dm: ANYONE, group: ANYONE, guestInGroup: "allowed" },
  { use: "`/status`", examples: ["/status"], dm: ANYONE, group: ANYONE, guestInGroup: "allowed" },
  { use: "`/skills`", examples: ["/skills"], dm: ANYONE, group: ANYONE, guestInGroup: "allowed" },
  { use: "`/model` (show)", examples: ["/model"], dm: ANYONE, group: ANYONE, guestInGroup: "allowed" },
  {
    use: "`/model <id>` (only the agent's `models`)",
    examples: ["/model fake-large"],
    dm: DM_PERSON,
    group: adminsOr("model"),
    guestInGroup: "refused",
  },
  { use: "`/queue` (show)", examples: ["/queue"], dm: ANYONE, group: ANYONE, guestInGroup: "allowed" },
  {
    use: "`/queue <mode>`",
    examples: ["/queue interrupt"],
    dm: DM_PERSON,
    group: adminsOr("queue"),
    guestInGroup: "refused",
  },
  {
    use: "`/new`, `/reset`",
    examples: ["/new", "/reset"],
    dm: DM_PERSON,
    group: adminsOr("new"),
    guestInGroup: "refused",
  },
  {
    use: "`/stop`",
    examples: ["/stop"],
    dm: DM_PERSON,
    group: `${adminsOr("stop")}; anyone else stops only what they started`,
    guestInGroup: "own",
  },
  { use: "`/compact`", examples: ["/compact"], dm: DM_PERSON, group: adminsOr("compact"), guestInGroup: "refused" },
  {
    use: "`/memory`, `/memory page N`, `/memory export`",
    examples: ["/memory", "/memory page 2", "/memory export"],
    dm: ANYONE,
    group: ANYONE,
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
    dm: DM_PERSON,
    group: adminsOr("memory"),
    guestInGroup: "refused",
  },
  { use: "`/memory stats`", examples: ["/memory stats"], dm: ADMINS, group: ADMINS, guestInGroup: "refused" },
  {
    use: "`/plan`, `/plan off`",
    examples: ["/plan", "/plan off"],
    dm: DM_PERSON,
    group: adminsOr("plan"),
    guestInGroup: "refused",
  },
  {
    use: "`/plan approve`, `/plan reject [feedback]`, a plan's Approve / Reject buttons",
    examples: ["/plan approve", "/plan reject do it differently"],
    dm: STARTER,
    group: STARTER,
    guestInGroup: "allowed",
  },
  {
    use: "`/approve <code>`, `/deny <code>`, a tool approval's Approve / Deny buttons",
    examples: ["/approve 123456", "/deny 123456"],
    dm: STARTER,
    group: STARTER,
    guestInGroup: "allowed",
  },
  {
    use: "`/goal` (show), `/goal <text>`",
    examples: ["/goal", "/goal ship the release"],
    dm: ANYONE,
    group: ANYONE,
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
    dm: `${ANYONE}; an autonomous goal: ${GOAL_SETTER}`,
    group: `${ANYONE}; an autonomous goal: ${GOAL_SETTER}`,
    guestInGroup: "allowed",
  },
  { use: "`/pair …`", examples: ["/pair list"], dm: ADMINS, group: ADMINS, guestInGroup: "refused" },
  {
    use: "`/agents …` and its actions (kill, goal stop, pause, resume)",
    examples: ["/agents"],
    dm: ADMINS,
    group: ADMINS,
    guestInGroup: "refused",
  },
  { use: "`/usage`", examples: ["/usage"], dm: ADMINS, group: ADMINS, guestInGroup: "refused" },
  { use: "`/schedule …`", examples: ["/schedule list"], dm: ADMINS, group: ADMINS, guestInGroup: "refused" },
];

/** The table as Markdown, exactly as docs/security.md holds it between its command-table markers. */
export function renderCommandPermissionTable(rows: readonly CommandPermission[] = COMMAND_PERMISSIONS): string {
  const lines = ["| command or button | in a DM | in a group |", "| --- | --- | --- |"];
  for (const row of rows) lines.push(`| ${row.use} | ${row.dm} | ${row.group} |`);
  return lines.join("\n");
}
