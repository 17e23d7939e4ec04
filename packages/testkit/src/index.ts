// @chorus/testkit: fake servers that speak the real wire protocols, for tests.
export * from "./cleanup/index.js";
export * from "./cluster/index.js";
export * from "./llm/index.js";
export * from "./network/index.js";
export * from "./platforms/index.js";
export * from "./scripted/index.js";
