import { expect, it } from "vitest";
import { clockedMemoryStore, describeStoreHousekeepingConformance } from "../src/testing/index.js";
import { BASE_CONFIG, startHarness } from "./fixtures/gateway-harness.js";

describeStoreHousekeepingConformance("MemorySessionStore", clockedMemoryStore);

it("refuses housekeeping options that are not positive integers", async () => {
  await expect(startHarness({ config: BASE_CONFIG, gateway: { housekeeping: { batchSize: 0 } } })).rejects.toThrow(
    /housekeeping\.batchSize must be a positive integer, got 0/,
  );
});
