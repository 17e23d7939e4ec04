import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

const FILES: Record<string, string> = {
  "welcome.md": [
    "# Welcome to Chorus",
    "",
    "This folder is the demo agent's workspace. Its tools (list_dir, read_file, …) can only see what is in here.",
    "",
    "Chorus routes messages from Discord, Slack, Telegram and this WebChat to agents, one session per chat.",
    "",
  ].join("\n"),
  "notes/ideas.md": [
    "# Ideas to try",
    "",
    "- Ask for the time: the agent calls `current_time`.",
    "- Say `research chorus`: a researcher sub-agent reads this workspace and reports back.",
    "- Run `/agents` in another tab while a research is running.",
    "- Plug in a real model: set ANTHROPIC_API_KEY or OPENAI_API_KEY and restart.",
    "",
  ].join("\n"),
};

/**
 * Creates the demo workspace (a welcome file and a notes folder) under `dir` when it is missing.
 * Contract: never overwrites a file that exists; returns the workspace path.
 */
export async function ensureDemoWorkspace(dir: string): Promise<string> {
  for (const [name, content] of Object.entries(FILES)) {
    const path = join(dir, name);
    await mkdir(join(path, ".."), { recursive: true });
    await writeFile(path, content, { flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
  return dir;
}
