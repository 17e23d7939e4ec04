/** The command line split into suite names and `--flag [value]` pairs. */
export interface CliArguments {
  readonly suites: string[];
  /** Every value given for each flag, in order; a flag without a value maps to `[""]`. */
  readonly flags: Map<string, string[]>;
}

/** Flags that never take a value. */
const SWITCHES = new Set(["help", "h", "side-by-side"]);

/**
 * Splits `pnpm bench` arguments: words are suite names, `--name value` / `--name=value` are flags. A flag's value is
 * the next word unless that is a flag itself or one of `suiteNames` (so `--profile platforms` profiles the default).
 * Contract: pure.
 */
export function parseCliArguments(args: readonly string[], suiteNames: readonly string[]): CliArguments {
  const suites: string[] = [];
  const flags = new Map<string, string[]>();
  const add = (name: string, value: string) => flags.set(name, [...(flags.get(name) ?? []), value]);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("-")) {
      suites.push(arg);
      continue;
    }
    const [name = "", inline] = arg.replace(/^--?/, "").split(/=(.*)/s);
    if (inline !== undefined) {
      add(name, inline);
      continue;
    }
    const next = args[i + 1];
    if (!SWITCHES.has(name) && next !== undefined && !next.startsWith("-") && !suiteNames.includes(next)) {
      add(name, next);
      i++;
    } else add(name, "");
  }
  return { suites, flags };
}
