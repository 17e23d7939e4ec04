/** One problem in a configuration: where (e.g. `agents[1].subagents.maxSpawnDepth`) and what was expected. */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * A configuration that cannot be used.
 * Contract: `issues` lists every problem found, each with its exact path; the message lists them one per line.
 */
export class GatewayConfigError extends Error {
  override readonly name = "GatewayConfigError";
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super(`invalid gateway configuration:\n${issues.map((issue) => `  ${issue.path}: ${issue.message}`).join("\n")}`);
    this.issues = issues;
  }
}

/** Writes a path the way a user finds it in their config: `channels[0].groups["-100:5"].trust`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (typeof part === "string" && /^[A-Za-z_$][\w$]*$/.test(part)) out += out.length === 0 ? part : `.${part}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out.length === 0 ? "(root)" : out;
}
