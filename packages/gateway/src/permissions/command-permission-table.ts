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

/** Who may use a command, in the words the table uses. */
export const WHO = {
  anyone: "anyone the bot answers",
  dmPerson: "the DM's person",
  admins: "admins",
  starter: "who started the run, or an admin",
} as const;

/** Group admins, or members where the group grants the change (`membersMay`). */
export function adminsOr(change: string): string {
  return `admins; members if the group grants \`${change}\``;
}

/**
 * Who may use every builtin command and button, in a DM and in a group: the rules `runBuiltinCommand`
 * (`adminOnly`, `mayChangeSession`) and the approval desk (`mayAnswerRun`) apply. An extension lists its own
 * commands' rows (`GatewayExtension.commandPermissions`); docs/security.md shows the bot's whole table, as rendered by
 * `renderCommandPermissionTable(commandPermissionsOf(extensions))`; tests walk each part as a guest in a group.
 * Contract: every builtin command appears in at least one row's `examples`.
 */
export const BUILTIN_COMMAND_PERMISSIONS: readonly CommandPermission[] = [
  { use: "`/help`", examples: ["/help"], dm: WHO.anyone, group: WHO.anyone, guestInGroup: "allowed" },
  { use: "`/status`", examples: ["/status"], dm: WHO.anyone, group: WHO.anyone, guestInGroup: "allowed" },
  { use: "`/model` (show)", examples: ["/model"], dm: WHO.anyone, group: WHO.anyone, guestInGroup: "allowed" },
  {
    use: "`/model <id>` (only the agent's `models`)",
    examples: ["/model fake-large"],
    dm: WHO.dmPerson,
    group: adminsOr("model"),
    guestInGroup: "refused",
  },
  { use: "`/queue` (show)", examples: ["/queue"], dm: WHO.anyone, group: WHO.anyone, guestInGroup: "allowed" },
  {
    use: "`/queue <mode>`",
    examples: ["/queue interrupt"],
    dm: WHO.dmPerson,
    group: adminsOr("queue"),
    guestInGroup: "refused",
  },
  {
    use: "`/new`, `/reset`",
    examples: ["/new", "/reset"],
    dm: WHO.dmPerson,
    group: adminsOr("new"),
    guestInGroup: "refused",
  },
  {
    use: "`/stop`",
    examples: ["/stop"],
    dm: WHO.dmPerson,
    group: `${adminsOr("stop")}; anyone else stops only what they started`,
    guestInGroup: "own",
  },
  { use: "`/compact`", examples: ["/compact"], dm: WHO.dmPerson, group: adminsOr("compact"), guestInGroup: "refused" },
  {
    use: "`/approve <code>`, `/deny <code>`, a tool approval's Approve / Deny buttons",
    examples: ["/approve 123456", "/deny 123456"],
    dm: WHO.starter,
    group: WHO.starter,
    guestInGroup: "allowed",
  },
  { use: "`/pair …`", examples: ["/pair list"], dm: WHO.admins, group: WHO.admins, guestInGroup: "refused" },
  {
    use: "`/agents …` and its actions (kill, the sections' actions)",
    examples: ["/agents"],
    dm: WHO.admins,
    group: WHO.admins,
    guestInGroup: "refused",
  },
];

/** The whole table of a gateway: the builtins' rows, then each extension's, in the order the extensions are given. */
export function commandPermissionsOf(
  extensions: readonly { readonly commandPermissions?: readonly CommandPermission[] }[],
): CommandPermission[] {
  return [...BUILTIN_COMMAND_PERMISSIONS, ...extensions.flatMap((extension) => extension.commandPermissions ?? [])];
}

/** The table as Markdown, exactly as docs/security.md holds it between its command-table markers. */
export function renderCommandPermissionTable(rows: readonly CommandPermission[]): string {
  const lines = ["| command or button | in a DM | in a group |", "| --- | --- | --- |"];
  for (const row of rows) lines.push(`| ${row.use} | ${row.dm} | ${row.group} |`);
  return lines.join("\n");
}
