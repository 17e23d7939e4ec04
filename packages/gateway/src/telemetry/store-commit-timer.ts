import { gatewayInstruments } from "./gateway-instruments.js";

/** Times one store commit into `chorus.store.commit.duration`. Contract: returns the commit's own promise result. */
export async function timeStoreCommit<T>(commit: () => Promise<T>): Promise<T> {
  const instruments = gatewayInstruments();
  if (instruments === undefined) return commit();
  const startedAt = performance.now();
  try {
    return await commit();
  } finally {
    instruments.storeCommit.record((performance.now() - startedAt) / 1000);
  }
}
