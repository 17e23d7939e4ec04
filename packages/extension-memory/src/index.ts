// Long-term memory in the Chorus gateway, as an extension (`memoryExtension`), over @chorus/memory's stores and tools.
export { GatewayMemory, type GatewayMemoryDeps, MEMORY_SETTING, type MemoryCommands } from "./gateway-memory.js";
export type { GatewayMemoryOptions } from "./gateway-memory-options.js";
export { linkedPeople } from "./linked-people.js";
export { FORGET_WITHOUT_ASKING, MEMORY_PAGE_SIZE, MEMORY_USAGE, memoryCommand } from "./memory-command.js";
export { memoryExtension } from "./memory-extension.js";
export { DEFAULT_EXTRACTION_IDLE_MS, type MemoryExtractionOptions } from "./session-extraction.js";
export { type SessionMemoryScopes, sessionMemoryScopes } from "./session-memory-scopes.js";
export {
  DEFAULT_STYLE_READ_BUDGET_MS,
  type UserStyleCommands,
  type UserStyleDeps,
  UserStyleModel,
} from "./user-model/user-style-model.js";
export { userStyleScope } from "./user-model/user-style-scope.js";
