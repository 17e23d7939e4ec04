export { GatewayMemory, type GatewayMemoryDeps, MEMORY_SETTING, type MemoryCommands } from "./gateway-memory.js";
export type { GatewayMemoryOptions } from "./gateway-memory-options.js";
export { linkedPeople } from "./linked-people.js";
export { DEFAULT_EXTRACTION_IDLE_MS, type MemoryExtractionOptions } from "./session-extraction.js";
export { type SessionMemoryScopes, sessionMemoryScopes } from "./session-memory-scopes.js";
