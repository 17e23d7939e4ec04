import type { ReportTable } from "./report-types.js";

// Cells that read as numbers (optionally with a unit or ×) are right-aligned.
const NUMERIC = /^[-+≤≥~]?\d[\d\s.,]*\s*(µs|ms|KB|MB|B|×|%)?(\s.*)?$/u;

/** Renders a table as aligned plain text, the first column left-aligned, numbers right-aligned. */
export function renderTable(table: ReportTable): string {
  const columns = table.headers.length;
  const widths = table.headers.map((header, col) =>
    Math.max(header.length, ...table.rows.map((row) => (row[col] ?? "").length)),
  );
  const line = (cells: string[]) =>
    Array.from({ length: columns }, (_, col) => {
      const cell = cells[col] ?? "";
      const width = widths[col] ?? 0;
      return col > 0 && NUMERIC.test(cell) ? cell.padStart(width) : cell.padEnd(width);
    })
      .join("  ")
      .trimEnd();
  const out = [table.title, line(table.headers), widths.map((w) => "-".repeat(w)).join("  ")];
  for (const row of table.rows) out.push(line(row));
  for (const note of table.notes) out.push(`  ${note}`);
  return out.join("\n");
}
