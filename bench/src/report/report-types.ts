/** A printed table: a title, column headers, rows of already-formatted cells and notes under it. */
export interface ReportTable {
  title: string;
  headers: string[];
  rows: string[][];
  notes: string[];
}

/** What a suite hands back for printing. */
export interface SuiteReport {
  suite: string;
  tables: ReportTable[];
}
