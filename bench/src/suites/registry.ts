import type { BenchSuite } from "./bench-suite.js";
import { cacheSuite } from "./cache.js";
import { clusterSuite } from "./cluster.js";
import { compactionSuite } from "./compaction.js";
import { coreSuite } from "./core.js";
import { focusSuite } from "./focus.js";
import { gatewaySuite } from "./gateway.js";
import { latencySuite } from "./latency.js";
import { mediaSuite } from "./media.js";
import { memorySuite } from "./memory.js";
import { platformsSuite } from "./platforms.js";
import { storeSuite } from "./store.js";
import { telemetrySuite } from "./telemetry.js";

/** Every suite `pnpm bench` knows, in the order `pnpm bench` with no argument runs them. Add new suites here. */
export const suites: readonly BenchSuite[] = [
  coreSuite,
  platformsSuite,
  gatewaySuite,
  storeSuite,
  clusterSuite,
  memorySuite,
  telemetrySuite,
  latencySuite,
  cacheSuite,
  compactionSuite,
  focusSuite,
  mediaSuite,
];
