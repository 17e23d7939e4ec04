/** What the store's thread needs to open the database: the SQLite store's options that are plain data. */
export interface StoreThreadOptions {
  path: string;
  busyTimeoutMs?: number;
  checkpointIntervalMs?: number;
  inboundEventTtlMs?: number;
  groupCommit?: boolean;
}
