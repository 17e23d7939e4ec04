/** One problem in a configuration file: where, and what was expected. */
export interface BotConfigIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * A configuration that cannot be used (unreadable file, bad syntax, missing environment variable, schema error).
 * Contract: `issues` lists every problem with its exact path; the message names the file and lists them one per line.
 */
export class BotConfigError extends Error {
  override readonly name = "BotConfigError";
  readonly issues: readonly BotConfigIssue[];
  readonly source: string;

  constructor(source: string, issues: readonly BotConfigIssue[]) {
    super(
      `invalid configuration in ${source}:\n${issues.map((issue) => `  ${issue.path}: ${issue.message}`).join("\n")}`,
    );
    this.source = source;
    this.issues = issues;
  }
}
