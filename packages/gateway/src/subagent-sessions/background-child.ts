import type { RunRecord } from "@chorus/store";

/**
 * Whether an interrupted sub-agent run was a background one, whose result its parent's session still expects: stored
 * so at its spawn, or (a run stored before that was kept) its parent run completed — a parent waiting for its child
 * ends after it, and its own interruption covers the child.
 */
export function wasBackgroundChild(run: RunRecord, parent: RunRecord | undefined): boolean {
  if (parent === undefined) return false;
  return run.spawn?.background === true || parent.status === "completed";
}
