import { readFileSync } from "node:fs";

/** True when a process with this pid is alive (a zombie awaiting its reaper counts as dead). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Polls until the pid is gone or `attempts` × 20 ms passed; returns whether it is gone. */
export async function waitUntilGone(pid: number, attempts = 100): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (!isProcessAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !isProcessAlive(pid);
}
