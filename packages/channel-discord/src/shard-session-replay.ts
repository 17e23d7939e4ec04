/** What the holder of a Discord shard saves with its lease: enough for another instance to RESUME the session. */
export interface ShardSession {
  readonly sessionId: string;
  readonly resumeUrl: string;
  readonly sequence: number;
}

/** One gateway dispatch (op 0). */
export interface GatewayDispatch {
  readonly op: 0;
  readonly t: string;
  readonly s: number;
  readonly d: unknown;
}

/** Reads a saved shard session from an ingress lease's state, or undefined when it holds none. */
export function shardSessionOf(state: Readonly<Record<string, unknown>> | undefined): ShardSession | undefined {
  const { sessionId, resumeUrl, sequence } = state ?? {};
  if (typeof sessionId !== "string" || typeof resumeUrl !== "string" || resumeUrl === "") return undefined;
  if (typeof sequence !== "number") return undefined;
  return { sessionId, resumeUrl, sequence };
}

/**
 * Fetches the events Discord kept for a shard session whose holder died: RESUMEs the session on a socket of its own
 * (Node's WebSocket), collects the dispatches it replays until RESUMED, and closes. A discord.js Client cannot take a
 * session over itself (it becomes ready, with its caches, only on READY), so the new holder IDENTIFIES its own session
 * first and feeds it these.
 * Contract: never rejects; resolves with the replayed dispatches, [] when the session cannot be resumed (op 9) or
 * nothing came within `timeoutMs`.
 */
export function replayShardSession(session: ShardSession, token: string, timeoutMs = 5000): Promise<GatewayDispatch[]> {
  return new Promise((resolve) => {
    const replayed: GatewayDispatch[] = [];
    let socket: WebSocket;
    try {
      socket = new WebSocket(`${session.resumeUrl.replace(/\/+$/, "")}?v=10&encoding=json`);
    } catch {
      resolve([]);
      return;
    }
    const finish = (events: GatewayDispatch[]): void => {
      clearTimeout(timer);
      socket.onmessage = null;
      socket.onclose = null;
      socket.onerror = null;
      if (socket.readyState <= 1) socket.close(1000);
      resolve(events);
    };
    const timer = setTimeout(() => finish([]), timeoutMs);
    socket.onerror = () => finish([]);
    socket.onclose = () => finish([]);
    socket.onmessage = (event: MessageEvent) => {
      let packet: { op?: number; t?: string | null; s?: number | null; d?: unknown };
      try {
        packet = JSON.parse(String(event.data)) as typeof packet;
      } catch {
        return;
      }
      if (packet.op === 10) {
        socket.send(JSON.stringify({ op: 6, d: { token, session_id: session.sessionId, seq: session.sequence } }));
      } else if (packet.op === 9) {
        finish([]);
      } else if (packet.op === 0 && packet.t === "RESUMED") {
        finish(replayed);
      } else if (packet.op === 0 && typeof packet.t === "string" && typeof packet.s === "number") {
        replayed.push({ op: 0, t: packet.t, s: packet.s, d: packet.d });
      }
    };
  });
}
