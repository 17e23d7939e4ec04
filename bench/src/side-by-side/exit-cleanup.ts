import { rmSync } from "node:fs";

const paths = new Set<string>();
let hooked = false;

/**
 * Removes `path` (recursively) if this process exits before the returned function is called — a bench stopped by
 * Ctrl-C or an error leaves no temp folder behind. Contract: the returned function forgets the path; it never throws.
 */
export function removeOnExit(path: string): () => void {
  if (!hooked) {
    hooked = true;
    process.on("exit", () => {
      for (const each of paths) rmSync(each, { recursive: true, force: true });
    });
  }
  paths.add(path);
  return () => {
    paths.delete(path);
  };
}
