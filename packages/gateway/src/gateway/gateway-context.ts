import type { Channel } from "@chorus/channel";
import type { StreamFn } from "@chorus/core";
import type { SessionStore } from "@chorus/store";
import type { ApprovalDesk } from "../approvals/approval-desk.js";
import type { GatewayConfig } from "../config/gateway-config-schema.js";
import type { ChatNotices } from "../delivery/chat-notices.js";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import type { RegisteredExtensions } from "../extension/index.js";
import type { RunTracker } from "../fleet/run-tracker.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import type { ClusterRequests } from "../ownership/cluster-requests.js";
import type { StoredIntakeOrder } from "../ownership/stored-intake-order.js";
import type { PairingService } from "../policy/pairing/pairing-service.js";
import type { ClusterRequest } from "./cluster-request.js";
import type { GatewayOptions } from "./gateway-options.js";
import type { PreparedAgent } from "./prepare-agent.js";
import type { SessionRegistry } from "./session-registry.js";

/**
 * What the `Gateway` hands its collaborators (intake, restart recovery, command host, sub-agent results): the shared
 * parts it wires once. Contract: built by the Gateway's constructor only; every field lives as long as the Gateway.
 */
export interface GatewayContext {
  readonly config: GatewayConfig;
  readonly options: GatewayOptions;
  readonly store: SessionStore;
  readonly events: GatewayEventBus;
  readonly runs: RunTracker;
  readonly pairing: PairingService;
  readonly approvals: ApprovalDesk;
  readonly logger: GatewayLogger;
  readonly now: () => number;
  /** The configured agents, prepared once. */
  readonly agents: ReadonlyMap<string, PreparedAgent>;
  /** The sessions with live state in memory. */
  readonly sessions: SessionRegistry;
  /** Notices to chats, through the outbox. */
  readonly notices: ChatNotices;
  /** Requests to the other instances of a cluster (kills, session commands); undefined outside a cluster. */
  readonly cluster?: ClusterRequests<ClusterRequest>;
  /** In a cluster: holds the intake's messages of a session while its stored, unanswered ones are taken up. */
  readonly intakeOrder?: StoredIntakeOrder;
  /** What the extensions add (commands, /agents sections, hooks). */
  readonly extensions: RegisteredExtensions;
  /** Every model call's chain (the output cap, the extensions' wrappers, the provider). */
  readonly streamFn: StreamFn;
  channelFor(channel: string, accountId: string): Channel | undefined;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
}

/** The key of a channel account in the gateway's maps (and in `selfIds`). */
export function channelKey(channel: string, accountId: string): string {
  return `${channel}/${accountId}`;
}
