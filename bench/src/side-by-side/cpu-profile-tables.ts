import { formatNumber } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import { summariseCpuProfile } from "./cpu-profile-summary.js";

/**
 * Tables for the profile of one system on one platform: top packages and top functions by self time of the largest
 * `.cpuprofile` (the main thread; worker threads write their own, listed in the notes).
 */
export async function cpuProfileTables(
  systemLabel: string,
  platform: string,
  files: readonly string[],
  timedWindowUs: { readonly start: number; readonly end: number } | undefined,
): Promise<ReportTable[]> {
  const [main, ...others] = files;
  if (main === undefined) {
    return [
      {
        title: `CPU profile of ${systemLabel} on ${platform}`,
        headers: ["note"],
        rows: [["no .cpuprofile was written (did the process exit cleanly on SIGTERM?)"]],
        notes: [],
      },
    ];
  }
  const summary = await summariseCpuProfile(main, timedWindowUs);
  const notes = [
    `profile: ${main}`,
    `${summary.windowed ? "the timed part only" : "the whole process life (start-up, warm-up, timed part, shutdown: the timed part could not be found in it)"}: ${formatNumber(summary.totalMs, 0)} ms sampled, ${formatNumber(summary.idleMs, 0)} ms idle; % of the busy time`,
    ...others.map((file) => `also written (another thread): ${file}`),
  ];
  return [
    {
      title: `CPU profile of ${systemLabel} on ${platform}: top ${summary.byPackage.length} packages by self time`,
      headers: ["package", "self ms", "%"],
      rows: summary.byPackage.map((entry) => [entry.name, formatNumber(entry.selfMs, 0), entry.percent.toFixed(1)]),
      notes,
    },
    {
      title: `CPU profile of ${systemLabel} on ${platform}: top ${summary.byFunction.length} functions by self time`,
      headers: ["function", "package", "file:line", "self ms", "%"],
      rows: summary.byFunction.map((entry) => [
        entry.name,
        entry.pkg,
        entry.location,
        formatNumber(entry.selfMs, 0),
        entry.percent.toFixed(1),
      ]),
      notes: [],
    },
  ];
}
