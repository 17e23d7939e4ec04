import type { SQLInputValue } from "node:sqlite";
import { checkLimit } from "@chorus/store";

/** A WHERE clause built from optional filters, with its bound values in order. */
export class Where {
  private readonly conditions: string[] = [];
  readonly values: SQLInputValue[] = [];

  equals(column: string, value: string): void {
    this.conditions.push(`${column} = ?`);
    this.values.push(value);
  }

  /**
   * `column` is one of `values`, written as literals (`status = 'running'`) so that SQLite can use the partial indexes
   * on status. Contract: only values from `allowed` become SQL; any other matches nothing (as in the memory store).
   */
  oneOf(column: string, values: readonly string[] | undefined, allowed: readonly string[]): void {
    if (values === undefined) return;
    const terms = values.filter((value) => allowed.includes(value)).map((value) => `${column} = '${value}'`);
    this.conditions.push(terms.length === 0 ? "0" : terms.length === 1 ? terms[0]! : `(${terms.join(" OR ")})`);
  }

  raw(condition: string, ...values: SQLInputValue[]): void {
    this.conditions.push(condition);
    this.values.push(...values);
  }

  /** A LIMIT clause bound as a value; call it last, after `clause()`. */
  limit(limit: number | undefined): string {
    const checked = checkLimit(limit);
    if (checked === undefined) return "";
    this.values.push(checked);
    return " LIMIT ?";
  }

  clause(): string {
    return this.conditions.length === 0 ? "" : ` WHERE ${this.conditions.join(" AND ")}`;
  }
}
