/** Variables a command the bot starts may see: enough to run programs, nothing that could be a secret. */
const SAFE_ENV_KEYS = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TERM", "TMPDIR", "SHELL", "TZ"];

/**
 * The scrubbed environment of every command the bot starts (exec, operator hooks): PATH, HOME, USER, LOGNAME, LANG,
 * LC_ALL, TERM, TMPDIR, SHELL and TZ from this process, so API keys and bot tokens in it never reach a child.
 * Contract: pure apart from reading `source`; `extra` is added on top (it wins).
 */
export function safeEnvironment(
  extra: Readonly<Record<string, string>> = {},
  source: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of SAFE_ENV_KEYS) if (source[key] !== undefined) env[key] = source[key];
  return { ...env, ...extra };
}
