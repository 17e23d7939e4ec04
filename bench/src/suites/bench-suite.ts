import type { SuiteReport } from "../report/report-types.js";

/**
 * A named benchmark suite. Contract: `run` prints nothing to stdout itself — progress goes
 * through `progress` (stderr) and the numbers come back as a report the CLI prints.
 */
export interface BenchSuite {
  /** The argument that selects it: `pnpm bench <name>`. */
  name: string;
  description: string;
  /** `flags`: the command line's `--name value` pairs (a suite reads the ones it knows). */
  run(progress: (line: string) => void, flags: ReadonlyMap<string, readonly string[]>): Promise<SuiteReport>;
}
