#!/usr/bin/env node
import { processIo } from "./cli/cli-io.js";
import { runCli } from "./cli/run-cli.js";

// The `chorus` command (bin) and what `npm start` runs.
const code = await runCli(process.argv.slice(2), processIo());
process.exit(code);
