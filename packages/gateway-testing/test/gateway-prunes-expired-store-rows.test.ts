import { expect, it } from "vitest";
import {
  clockedMemoryStore,
  describeStoreHousekeepingConformance,
  HARNESS_CONFIG,
  startHarness,
} from "../src/index.js";

describeStoreHousekeepingConformance("MemorySessionStore", clockedMemoryStore);

it("refuses housekeeping options that are not positive integers", async () => {
  await expect(startHarness({ config: HARNESS_CONFIG, gateway: { housekeeping: { batchSize: 0 } } })).rejects.toThrow(
    /housekeeping\.batchSize must be a positive integer, got 0/,
  );
});
