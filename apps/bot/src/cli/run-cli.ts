import { readFileSync } from "node:fs";
import { botConfigJsonSchema } from "../config/config-json-schema.js";
import { chatCommand } from "./chat-command.js";
import type { CliIo } from "./cli-io.js";
import { doctorCommand } from "./doctor/doctor-command.js";
import { parseArgs, USAGE } from "./parse-args.js";
import { startCommand } from "./start-command.js";
import { storeCopyCommand } from "./store-copy/store-copy-command.js";

/**
 * Runs one `chorus` command line.
 * Contract: resolves with the process exit code; never rejects for user errors (they are printed).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const command = parseArgs(argv);
  switch (command.kind) {
    case "help":
      io.stdout.write(`${USAGE}\n`);
      return 0;
    case "version":
      io.stdout.write(`${botVersion()}\n`);
      return 0;
    case "invalid":
      io.stderr.write(`chorus: ${command.message}\n\n${USAGE}\n`);
      return 2;
    case "config-schema":
      io.stdout.write(`${JSON.stringify(botConfigJsonSchema(), null, 2)}\n`);
      return 0;
    case "start":
      return startCommand(io, command.configPath);
    case "doctor":
      return doctorCommand(io, command.configPath);
    case "chat":
      return chatCommand(io, command.configPath);
    case "store-copy": {
      const { kind: _kind, ...options } = command;
      return storeCopyCommand(io, options);
    }
  }
}

function botVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}
