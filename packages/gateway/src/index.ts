export * from "./channel/index.js";
export * from "./config/index.js";
export * from "./events/index.js";
export * from "./markup/index.js";
export * from "./policy/index.js";
export * from "./replies/index.js";
export * from "./routing/index.js";
export * from "./session-key/index.js";
