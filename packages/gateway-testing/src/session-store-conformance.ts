import { describe } from "vitest";
import { describeClaimOnCommit } from "./claim-on-commit-conformance.js";
import type { ClockedStore } from "./clocked-store.js";
import { describeInboundDedupe } from "./inbound-dedupe-conformance.js";
import { describeInboundMessages } from "./inbound-messages-conformance.js";
import { describeOutbox } from "./outbox-conformance.js";
import { describePairing } from "./pairing-conformance.js";
import { describeRuns } from "./runs-conformance.js";
import { describeSchedules } from "./schedules-conformance.js";
import { describeSessions } from "./sessions-conformance.js";
import { describeSpendLedger } from "./spend-ledger-conformance.js";
import { describeTraceLinks } from "./trace-links-conformance.js";
import { describeTranscripts } from "./transcripts-conformance.js";
import { describeTurnsAndTransactions } from "./turns-and-transactions-conformance.js";

/**
 * Registers the SessionStore conformance suite (sessions, transcripts, runs, inbound dedupe and messages, outbox,
 * pairing, schedules, turns and transactions, claim on commit, spend, trace links, close) as a vitest `describe` named
 * `name`; each sub-suite opens one fresh store from `open` per test.
 * Contract: every store package calls it once from a test file; a store that passes behaves as the gateway expects.
 * @example describeSessionStoreConformance("MemorySessionStore", () => clockedMemoryStore());
 */
export function describeSessionStoreConformance(name: string, open: () => ClockedStore): void {
  describe(name, () => {
    describeSessions(open);
    describeTranscripts(open);
    describeRuns(open);
    describeInboundDedupe(open);
    describeInboundMessages(open);
    describeOutbox(open);
    describePairing(open);
    describeSchedules(open);
    describeTurnsAndTransactions(open);
    describeClaimOnCommit(open);
    describeSpendLedger(open);
    describeTraceLinks(open);
  });
}
