export { type Closable, TestCleanup } from "./test-cleanup.js";
