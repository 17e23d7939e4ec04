/** A direct-message session: one per person, per agent, per bot account. */
export interface DmSessionKey {
  readonly kind: "dm";
  readonly agentId: string;
  readonly accountId: string;
  readonly channel: string;
  readonly peerId: string;
}

/** A group (or channel) session, optionally narrowed to one thread or forum topic. */
export interface GroupSessionKey {
  readonly kind: "group";
  readonly agentId: string;
  readonly accountId: string;
  readonly channel: string;
  readonly groupId: string;
  readonly threadId?: string;
}

/** A sub-agent session: its depth and its whole lineage are part of the key and never change. */
export interface SubagentSessionKey {
  readonly kind: "subagent";
  readonly agentId: string;
  /** 1 for a child of a root session, parent depth + 1 below that. */
  readonly depth: number;
  readonly childId: string;
  readonly parent: SessionKey;
}

/** A root (chat-facing) session key. */
export type RootSessionKey = DmSessionKey | GroupSessionKey;

/** Any session key, as structured data. `formatSessionKey` turns it into its one string form. */
export type SessionKey = RootSessionKey | SubagentSessionKey;
