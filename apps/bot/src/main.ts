#!/usr/bin/env node
import { processIo } from "./cli/cli-io.js";
import { runCli } from "./cli/run-cli.js";

// Everything the bot writes — transcripts, memory, saved outputs, workspace files, hooks' logs — is its owner's only:
// files 0600, folders 0700, whatever the shell's umask (commands it starts inherit this too).
process.umask(0o077);

// The `chorus` command (bin) and what `npm start` runs.
const code = await runCli(process.argv.slice(2), processIo());
process.exit(code);
