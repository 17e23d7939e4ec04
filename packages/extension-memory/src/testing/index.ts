// `@chorus/extension-memory/testing`: the scenarios every session store runs to prove long-term memory's extraction
// pass never reads more after a restart (needs vitest; the main entry never loads it).
export { describeMemoryMarksAcrossRestarts, type MemoryMarksStores } from "./memory-marks-across-restarts.js";
export { contentText, toolCallScript } from "./tool-call-script.js";
