import { checkLimit } from "@chorus/store";

/** A WHERE clause built from optional filters, with its bound values (`$1`, `$2`, …) in order. */
export class WhereClause {
  private readonly conditions: string[] = [];
  readonly values: unknown[] = [];

  equals(column: string, value: string): void {
    this.values.push(value);
    this.conditions.push(`${column} = $${this.values.length}`);
  }

  /**
   * `column` is one of `values`, written as literals (`status = 'running'`) so that the planner can use the partial
   * indexes on status. Contract: only values from `allowed` become SQL; any other matches nothing (as in the memory store).
   */
  oneOf(column: string, values: readonly string[] | undefined, allowed: readonly string[]): void {
    if (values === undefined) return;
    const terms = values.filter((value) => allowed.includes(value)).map((value) => `'${value}'`);
    this.conditions.push(terms.length === 0 ? "false" : `${column} IN (${terms.join(", ")})`);
  }

  /** A LIMIT clause bound as a value; call it last, after `clause()`. */
  limit(limit: number | undefined): string {
    const checked = checkLimit(limit);
    if (checked === undefined) return "";
    this.values.push(checked);
    return ` LIMIT $${this.values.length}`;
  }

  clause(): string {
    return this.conditions.length === 0 ? "" : ` WHERE ${this.conditions.join(" AND ")}`;
  }
}
