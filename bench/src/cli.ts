#!/usr/bin/env node
// `pnpm bench [suite...]`: runs the named suites (all of them when none is named) and prints their tables.
import { describeMachine, machineInfo } from "./report/machine.js";
import { renderTable } from "./report/render-table.js";
import { suites } from "./suites/registry.js";

function usage(): string {
  const lines = suites.map((suite) => `  ${suite.name.padEnd(10)} ${suite.description}`);
  return ["usage: pnpm bench [suite...]", "suites:", ...lines].join("\n");
}

async function main(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usage());
    return 0;
  }
  const unknown = args.filter((name) => !suites.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    console.error(`unknown suite: ${unknown.join(", ")}\n${usage()}`);
    return 2;
  }
  const selected = args.length === 0 ? suites : suites.filter((suite) => args.includes(suite.name));
  console.log(`Chorus bench · ${new Date().toISOString()}`);
  console.log(`Machine: ${describeMachine(machineInfo())}`);
  for (const suite of selected) {
    const started = performance.now();
    const report = await suite.run((line) => process.stderr.write(`[${suite.name}] ${line}\n`));
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
