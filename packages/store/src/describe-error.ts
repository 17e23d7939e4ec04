/** A short, secret-free description of a thrown value for logs and notices. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
