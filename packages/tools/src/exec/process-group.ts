import type { ChildProcess } from "node:child_process";

/**
 * Kills a detached child's whole process group (the shell and everything it started).
 * Contract: never throws; a group that is already gone is fine.
 */
export function killProcessGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}
