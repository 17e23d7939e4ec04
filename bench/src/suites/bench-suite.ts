import type { SuiteReport } from "../report/report-types.js";

/**
 * A named benchmark suite. Contract: `run` prints nothing to stdout itself — progress goes
 * through `progress` (stderr) and the numbers come back as a report the CLI prints.
 */
export interface BenchSuite {
  /** The argument that selects it: `pnpm bench <name>`. */
  name: string;
  description: string;
  run(progress: (line: string) => void): Promise<SuiteReport>;
}
