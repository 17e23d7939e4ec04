import { existsSync } from "node:fs";
import { resolve } from "node:path";

/** The file names looked for, in order, when no --config is given. */
export const CONFIG_FILE_NAMES = ["chorus.config.yaml", "chorus.config.yml", "chorus.config.json"] as const;

/**
 * The config file to use: `--config`, else `CHORUS_CONFIG`, else the first of CONFIG_FILE_NAMES in `cwd`, then in
 * the folder `npm start` was run from (INIT_CWD: the repository root, while the bot itself runs in apps/bot).
 * Contract: returns undefined when none is given and none exists (the bot then runs on defaults); an explicit path
 * is returned even when missing, so loading it reports "file not found".
 */
export function findConfigFile(explicit: string | undefined, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const given = explicit ?? (env.CHORUS_CONFIG || undefined);
  if (given !== undefined) return resolve(cwd, given);
  const folders = env.INIT_CWD && resolve(env.INIT_CWD) !== resolve(cwd) ? [cwd, env.INIT_CWD] : [cwd];
  for (const folder of folders) {
    for (const name of CONFIG_FILE_NAMES) {
      const path = resolve(folder, name);
      if (existsSync(path)) return path;
    }
  }
  return undefined;
}
