import { isAbsolute, posix } from "node:path";
import type { ExecutionContext } from "@chorus/core";

/**
 * The folder an exec call runs in: its own `cwd` taken relative to the turn's working directory (workspace root when
 * there is no execution context). Contract: purely lexical; the workspace check happens when the path is resolved.
 */
export function effectiveCwd(execution: ExecutionContext | undefined, requested: string | undefined): string {
  const base = execution?.cwd ?? ".";
  if (requested === undefined) return base;
  if (isAbsolute(requested)) return requested;
  return posix.join(base, requested);
}
