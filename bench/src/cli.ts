#!/usr/bin/env node
// `pnpm bench [suite...]`: runs the named suites (all of them when none is named) and prints their tables.
import { parseCliArguments } from "./cli-flags.js";
import { describeMachine, machineInfo } from "./report/machine.js";
import { renderTable } from "./report/render-table.js";
import { suites } from "./suites/registry.js";

function usage(): string {
  const lines = suites.map((suite) => `  ${suite.name.padEnd(10)} ${suite.description}`);
  return [
    "usage: pnpm bench [suite...] [flags]",
    "suites:",
    ...lines,
    "flags of the platforms suite (side-by-side part, see bench/README.md):",
    "  --side-by-side        run only the side-by-side part (Chat SDK vs chorus start, child processes)",
    "  --rounds N            rounds of the side-by-side part (default 7)",
    "  --platform telegram,slack   --system chorus,chat-sdk-ai-redis,…   pick platforms / systems (ids: chat-sdk-echo-memory,",
    "                        chat-sdk-echo-redis, chat-sdk-fetch-memory, chat-sdk-ai-memory, chat-sdk-ai-redis, chorus, chorus-baseline)",
    "  --profile [system]    one round of one system (default chorus) with node --cpu-prof; prints the top entries",
    "  --chat-sdk-concurrency concurrent|queue|drop   the Chat SDK bots' concurrency strategy (default concurrent)",
    "  --chorus-baseline DIR another checkout (built) whose chorus start runs in the same rounds (a paired before/after)",
    "flags of the latency suite:",
    "  --platform telegram,discord,slack   --telemetry off|on   pick rows",
    "  --messages N  --warmup N   timed and warm-up messages per row (default 240 and 24)",
    "flags of the cluster suite (PostgreSQL on 127.0.0.1:5432, see bench/README.md):",
    "  --chats N  --messages N   chats and messages per chat of each throughput row (default 20 × 10)",
    "  --kills N  --lease-ms N   kill -9 failovers timed (default 10) and the instances' leaseMs (default: the store's, 3000)",
    "  --instances N  --cpu-prof DIR   PostgreSQL rows 1…N (default 3); instances write node --cpu-prof profiles to DIR",
    "  --paired-rounds N     rounds of SQLite ×1 and PostgreSQL ×1 measured in turns (default 5; 0 = none)",
    "flags of the media suite:",
    "  --turns N  --warmup N   timed and warm-up rounds of text / cold / warm photo turns (default 40 and 3)",
    "  --chats N  --cap-mb N   chats of the burst (default 50) and the extension's maxBytesInMemory in MiB (default 16)",
    "  --table turns|burst     only one of the two tables",
  ].join("\n");
}

async function main(args: string[]): Promise<number> {
  const { suites: names, flags } = parseCliArguments(
    args,
    suites.map((suite) => suite.name),
  );
  if (flags.has("help") || flags.has("h")) {
    console.log(usage());
    return 0;
  }
  const unknown = names.filter((name) => !suites.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    console.error(`unknown suite: ${unknown.join(", ")}\n${usage()}`);
    return 2;
  }
  const selected = names.length === 0 ? suites : suites.filter((suite) => names.includes(suite.name));
  console.log(`Chorus bench · ${new Date().toISOString()}`);
  console.log(`Machine: ${describeMachine(machineInfo())}`);
  for (const suite of selected) {
    const started = performance.now();
    const report = await suite.run((line) => process.stderr.write(`[${suite.name}] ${line}\n`), flags);
    console.log(`\n== ${report.suite} (${((performance.now() - started) / 1000).toFixed(0)} s) ==`);
    for (const table of report.tables) console.log(`\n${renderTable(table)}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  },
);
