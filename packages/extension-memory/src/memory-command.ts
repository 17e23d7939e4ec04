import type { ExtensionCommand, ExtensionReply } from "@chorus/gateway";
import type { Fact } from "@chorus/memory";
import type { MemoryCommands } from "./gateway-memory.js";
import { memoryMissesReply } from "./memory-misses-reply.js";
import type { UserStyleCommands } from "./user-model/user-style-model.js";
import { userStyleReply } from "./user-model/user-style-reply.js";

/** Facts per `/memory` page. */
export const MEMORY_PAGE_SIZE = 10;

/** `/memory forget <text>` deletes at most this many facts without asking first. */
export const FORGET_WITHOUT_ASKING = 3;

/** The last word of `/memory forget <text> confirm`. */
const CONFIRM_WORD = "confirm";

export const MEMORY_USAGE =
  "/memory [page N | forget <id|text> [confirm] | off | on | export | style [clear] | stats | misses]";

/**
 * /memory: what the bot remembers in this chat (about you in a DM, about the group in a group), paged; forget a fact;
 * memory off/on for this session; export as JSON; `stats` (admins): fact counts per scope, never their contents;
 * `misses` (admins, in a DM): the agent's newest recall misses; `style [clear]`: what the per-user model noticed about
 * how the asker writes (shown in a DM only), or forgetting it (`style`: the user model, when `memory.userModel` is on).
 * Without `memory` (not configured) it answers that, after the same permission checks.
 */
export function memoryCommand(memory: MemoryCommands | undefined, style?: UserStyleCommands): ExtensionCommand {
  return {
    name: "memory",
    usage: MEMORY_USAGE,
    description: "what I remember here: list, forget, off/on, export; stats and misses for admins",
    adminOnly: false,
    ephemeral: true,
    // `/memory off|on` changes the chat's shared session: in a group only admins, unless the group grants `memory`.
    sessionChange: ([first]) => {
      const word = first?.toLowerCase();
      return word === "on" || word === "off" ? "memory" : undefined;
    },
    run: (context) => runMemoryCommand(memory, style, context),
  };
}

async function runMemoryCommand(
  memory: MemoryCommands | undefined,
  style: UserStyleCommands | undefined,
  context: Parameters<ExtensionCommand["run"]>[0],
): Promise<string | ExtensionReply> {
  if (memory === undefined) return "Long-term memory is not configured.";
  if (context.args[0]?.toLowerCase() === "style") return userStyleReply(style, context);
  return runFactsCommand(memory, context);
}

async function runFactsCommand(
  memory: MemoryCommands,
  { args, sessionKey, trust, isAdmin, agentId, message }: Parameters<ExtensionCommand["run"]>[0],
): Promise<string | ExtensionReply> {
  const [sub = "page", ...rest] = args;
  const action = sub.toLowerCase();
  if (action === "stats") {
    if (!isAdmin) return "Only admins see memory stats.";
    const counts = await memory.counts();
    if (counts.length === 0) return "Memory is empty.";
    return ["**Facts per scope**", ...counts.map((row) => `- \`${row.scope}\`: ${row.count}`)].join("\n");
  }
  if (action === "misses") {
    if (!isAdmin) return "Only admins see memory misses.";
    return memoryMissesReply(memory, agentId, message.chatType);
  }
  if (action === "off" || action === "on") {
    await memory.setEnabled(sessionKey, action === "on");
    return action === "on"
      ? "Memory is on for this conversation."
      : "Memory is off for this conversation: I neither recall nor save facts here (`/memory on` to undo).";
  }
  const scopes = memory.scopesOf(sessionKey, trust);
  const scope = scopes.chat;
  if (scope === undefined) return "This conversation has no long-term memory.";
  if (action === "forget") {
    const confirmed = rest.length > 1 && rest.at(-1)?.toLowerCase() === CONFIRM_WORD;
    const target = (confirmed ? rest.slice(0, -1) : rest).join(" ").trim();
    if (target === "") return "Usage: `/memory forget <id|text>`";
    if (scopes.write === undefined) return "You cannot change the memory of this chat.";
    if (!confirmed) {
      const matching = await memory.forgettable(scope, target);
      if (matching.length > FORGET_WITHOUT_ASKING) return askToConfirm(target, matching);
    }
    const gone = await memory.forget(scope, target);
    if (gone.length === 0) return `Nothing remembered here matches “${target}”.`;
    return [`Forgot ${gone.length} fact${gone.length === 1 ? "" : "s"}:`, ...gone.map(line)].join("\n");
  }
  if (action === "export") {
    const exported = await memory.export(scope);
    return `\`\`\`json\n${JSON.stringify(exported, null, 2)}\n\`\`\``;
  }
  if (action !== "page" && action !== "list" && !/^\d+$/.test(action)) return `Usage: \`${MEMORY_USAGE}\``;
  const pageArg = /^\d+$/.test(action) ? action : rest[0];
  const pageNumber = Math.max(1, Number.parseInt(pageArg ?? "1", 10) || 1);
  const page = await memory.list(scope, { limit: MEMORY_PAGE_SIZE, offset: (pageNumber - 1) * MEMORY_PAGE_SIZE });
  const off = (await memory.enabled(sessionKey)) ? "" : " (memory is off in this conversation)";
  if (page.total === 0) return `I remember nothing here yet${off}.`;
  const pages = Math.ceil(page.total / MEMORY_PAGE_SIZE);
  const lines = [`**What I remember here** — page ${pageNumber} of ${pages}, ${page.total} facts${off}`];
  lines.push(...page.facts.map(line));
  if (pageNumber < pages) lines.push(`\`/memory page ${pageNumber + 1}\` for more`);
  return lines.join("\n");
}

/**
 * A forget that would delete more than a few facts waits for a confirmation: a button where the platform has buttons
 * (it sends the confirming command), the same command typed with `confirm` everywhere.
 */
function askToConfirm(target: string, matching: readonly Fact[]): ExtensionReply {
  const command = `/memory forget ${target} ${CONFIRM_WORD}`;
  const shown = matching.slice(0, MEMORY_PAGE_SIZE);
  const more = matching.length - shown.length;
  return {
    text: [
      `“${target}” matches ${matching.length} facts here:`,
      ...shown.map(line),
      ...(more > 0 ? [`…and ${more} more.`] : []),
      `Nothing was forgotten yet. To forget all ${matching.length}, send \`${command}\` — or name the fact more exactly.`,
    ].join("\n"),
    buttons: [{ id: command, label: `Forget all ${matching.length}` }],
  };
}

function line(fact: { id: string; text: string; updatedAt: number }): string {
  return `- \`${fact.id}\` ${fact.text} _(${new Date(fact.updatedAt).toISOString().slice(0, 10)})_`;
}
