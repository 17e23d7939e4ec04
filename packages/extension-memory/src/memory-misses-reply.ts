import type { MemoryMiss } from "@chorus/memory";
import type { MemoryCommands } from "./gateway-memory.js";

/** How many misses `/memory misses` shows: the newest. */
export const MISSES_SHOWN = 10;

/**
 * The answer to an admin's `/memory misses`: the agent's newest recall misses (time, outcome, strategy, session, the
 * query as stored — at most 512 characters). Only in a DM: the misses hold the words of every chat of the agent,
 * which a group must not read.
 */
export async function memoryMissesReply(
  memory: MemoryCommands,
  agentId: string,
  chatType: "dm" | "group",
): Promise<string> {
  if (chatType !== "dm") return "Memory misses hold words from every chat of this agent: ask me for them in a DM.";
  const page = await memory.misses(agentId, MISSES_SHOWN);
  if (page.total === 0) return `No recall has missed for \`${agentId}\` yet.`;
  const shown =
    page.misses.length < page.total
      ? `the newest ${page.misses.length} of ${page.total}`
      : `${page.total} miss${page.total === 1 ? "" : "es"}`;
  return [`**Recall misses of \`${agentId}\`** — ${shown}`, ...page.misses.map(missLine)].join("\n");
}

function missLine(miss: MemoryMiss): string {
  const at = new Date(miss.at).toISOString().slice(0, 19).replace("T", " ");
  const why = miss.reason === "no_results" ? "no results" : miss.reason === "timeout" ? "timed out" : miss.error;
  // One line per miss: the query's own line breaks would read as other entries.
  const query = miss.query.replace(/\s+/g, " ");
  return `- ${at} · ${why} · ${miss.strategy} · \`${miss.sessionKey}\` — “${query}”`;
}
