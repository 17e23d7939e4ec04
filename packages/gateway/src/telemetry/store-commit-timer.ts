import { gatewayInstruments } from "./gateway-instruments.js";

/**
 * Times one store commit into `chorus.store.commit.duration`. Contract: returns the commit's own promise (no extra
 * microtask turn, so what follows a commit runs exactly when it did without telemetry).
 */
export function timeStoreCommit<T>(commit: () => Promise<T>): Promise<T> {
  const instruments = gatewayInstruments();
  if (instruments === undefined) return commit();
  const startedAt = performance.now();
  const done = (): void => instruments.storeCommit.record((performance.now() - startedAt) / 1000);
  const committed = commit();
  committed.then(done, done);
  return committed;
}
