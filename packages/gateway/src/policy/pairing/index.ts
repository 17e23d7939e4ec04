export type { PairingInsertResult, PairingRequest, PairingScope, PairingStore } from "@chorus/store";
export { InMemoryPairingStore } from "./in-memory-pairing-store.js";
export {
  generatePairingCode,
  normalizePairingCode,
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_LENGTH,
} from "./pairing-code.js";
export {
  type PairingDecisionOutcome,
  type PairingOptions,
  type PairingRequestOutcome,
  PairingService,
} from "./pairing-service.js";
