/**
 * A path that resolves outside the workspace root (through `..`, an absolute path or a
 * symlink). The message is written for the model: it says what was refused and why.
 */
export class WorkspaceEscapeError extends Error {
  override readonly name = "WorkspaceEscapeError";
  constructor(
    readonly requestedPath: string,
    reason: string,
  ) {
    super(`Path "${requestedPath}" is outside the workspace: ${reason}. Use a path relative to the workspace root.`);
  }
}
