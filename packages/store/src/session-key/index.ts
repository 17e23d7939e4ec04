export { formatSessionKey } from "./format-session-key.js";
export { KEY_ID_PATTERN } from "./key-component.js";
export { type ParseSessionKeyResult, parseSessionKey, parseSessionKeyOrThrow } from "./parse-session-key.js";
export { SessionKeyError, type SessionKeyErrorCode } from "./session-key-error.js";
export { childSessionKey, isSubagentKey, lineageOf, rootKeyOf, subagentDepth } from "./session-key-lineage.js";
export type {
  DmSessionKey,
  GroupSessionKey,
  RootSessionKey,
  SessionKey,
  SubagentSessionKey,
} from "./session-key-types.js";
