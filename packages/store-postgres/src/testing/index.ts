// `@chorus/store-postgres/testing`: what tests of this package and of the bot share to run against a real PostgreSQL.
export { createScratchDatabase, queryOnce, type ScratchDatabase, TEST_SERVER } from "./scratch-database.js";
export { waitForShardsSettled } from "./shards-settled.js";
