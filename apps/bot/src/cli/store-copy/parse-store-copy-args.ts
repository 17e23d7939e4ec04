/** `chorus store copy` options; what is left out comes from the config. */
export interface StoreCopyOptions {
  readonly configPath?: string;
  /** The SQLite file to copy from. Default: the config's SQLite store (`<dataDir>/chorus.db`). */
  readonly from?: string;
  /** The PostgreSQL URL to copy into. Default: the config's PostgreSQL store (or DATABASE_URL). */
  readonly to?: string;
  /** The PostgreSQL schema to copy into. Default: the config's, else `public`. */
  readonly schema?: string;
}

const OPTIONS = { "--config": "configPath", "-c": "configPath", "--from": "from", "--to": "to", "--schema": "schema" };

/**
 * Parses the arguments after `chorus store copy`.
 * Contract: pure; an unknown option or one without a value gives a message instead of options.
 */
export function parseStoreCopyArgs(argv: readonly string[]): StoreCopyOptions | { readonly invalid: string } {
  const args = [...argv];
  const options: Record<string, string> = {};
  while (args.length > 0) {
    const arg = args.shift() as string;
    const [name, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const key = OPTIONS[name as keyof typeof OPTIONS];
    if (key === undefined) return { invalid: `unknown option "${arg}" for store copy` };
    const value = inline ?? args.shift();
    if (value === undefined || value === "") return { invalid: `${name} needs a value` };
    options[key] = value;
  }
  return options;
}
