import { parseStoreCopyArgs, type StoreCopyOptions } from "./store-copy/parse-store-copy-args.js";

/** A parsed command line. */
export type CliCommand =
  | { readonly kind: "start"; readonly configPath?: string }
  | { readonly kind: "doctor"; readonly configPath?: string }
  | { readonly kind: "chat"; readonly configPath?: string }
  | { readonly kind: "config-schema" }
  | ({ readonly kind: "store-copy" } & StoreCopyOptions)
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "invalid"; readonly message: string };

/** The usage text. */
export const USAGE = `Usage: chorus <command> [options]

Commands:
  start [--config <file>]   run the gateway (default command; what \`npm start\` runs)
  doctor [--config <file>]  check the config, every channel token, every provider key and the store
  chat [--config <file>]    talk to the default agent in this terminal
  config schema             print the JSON Schema of chorus.config.yaml
  store copy [--from <sqlite file>] [--to <postgres url>] [--schema <name>] [--config <file>]
                            copy a SQLite store into an empty PostgreSQL database (both stopped);
                            by default from the config's data dir into its PostgreSQL store

Without --config, chorus.config.yaml / .yml / .json in the current folder is used (or CHORUS_CONFIG);
without any file, WebChat runs on http://127.0.0.1:8787 with the best model the environment offers.`;

/**
 * Parses `chorus` arguments (without node and the script path).
 * Contract: pure; unknown commands and options give `invalid` with a message.
 */
export function parseArgs(argv: readonly string[]): CliCommand {
  const args = [...argv];
  if (args.includes("--help") || args.includes("-h")) return { kind: "help" };
  if (args.includes("--version") || args.includes("-v")) return { kind: "version" };
  const command = args[0] !== undefined && !args[0].startsWith("-") ? (args.shift() as string) : "start";
  if (command === "help") return { kind: "help" };
  if (command === "config") {
    if (args[0] === "schema" && args.length === 1) return { kind: "config-schema" };
    return { kind: "invalid", message: `unknown config subcommand "${args.join(" ")}"; try: chorus config schema` };
  }
  if (command === "store") {
    if (args[0] !== "copy") {
      return { kind: "invalid", message: `unknown store subcommand "${args.join(" ")}"; try: chorus store copy` };
    }
    const parsed = parseStoreCopyArgs(args.slice(1));
    return "invalid" in parsed ? { kind: "invalid", message: parsed.invalid } : { kind: "store-copy", ...parsed };
  }
  if (command !== "start" && command !== "doctor" && command !== "chat") {
    return { kind: "invalid", message: `unknown command "${command}"` };
  }
  let configPath: string | undefined;
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (arg === "--config" || arg === "-c") {
      const value = args.shift();
      if (value === undefined) return { kind: "invalid", message: "--config needs a file path" };
      configPath = value;
    } else if (arg.startsWith("--config=")) {
      configPath = arg.slice("--config=".length);
    } else {
      return { kind: "invalid", message: `unknown option "${arg}" for ${command}` };
    }
  }
  return configPath === undefined ? { kind: command } : { kind: command, configPath };
}
