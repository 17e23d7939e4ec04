import { type AddressInfo, connect, createServer, type Socket } from "node:net";

/** A TCP door in front of a local server, for tests of a platform that cannot be reached for a while. */
export interface NetworkGate {
  /** `http://127.0.0.1:<port>`: give this to a client instead of the server's own address. */
  readonly url: string;
  readonly port: number;
  /** True while connections pass through (not shut, not stalled). */
  readonly isOpen: boolean;
  /** Connections cut while the gate was shut. */
  readonly refused: number;
  /** Lets new connections through to the server. */
  open(): void;
  /** Cuts every connection under way and every new one at once, as an unreachable host looks to a client. */
  shut(): void;
  /**
   * Carries nothing any more without closing anything, as a network that silently drops packets: connections under
   * way and new ones stay open and hear nothing, for good (they never carry anything again, even after `open`), so only
   * a client's own timeout ends them. `open` lets new connections through again.
   */
  stall(): void;
  /** Cuts everything and stops listening. Contract: idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a gate on 127.0.0.1 (port 0) that forwards each connection to `target` while open.
 * Contract: binds loopback only; `shut` destroys the connections of keep-alive clients too, so their next request
 * fails at the network level instead of reusing a socket.
 * @example
 * const gate = await startNetworkGate(telegram.apiRoot);
 * const channel = createTelegramChannel({ token, apiRoot: gate.url });
 * gate.shut(); // Telegram is now unreachable for the channel
 */
export async function startNetworkGate(target: string | URL, options: { open?: boolean } = {}): Promise<NetworkGate> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  /** Connections that stopped carrying anything (a stall began while they were open, or they began in one). */
  const dead = new WeakSet<Socket>();
  let isOpen = options.open ?? true;
  let stalled = false;
  let refused = 0;
  let closed: Promise<void> | undefined;
  const cutAll = (): void => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const server = createServer((socket) => {
    socket.on("error", () => {});
    if (stalled) {
      // Accepted, and then nothing: the client waits for an answer that never comes.
      sockets.add(socket);
      dead.add(socket);
      socket.once("close", () => sockets.delete(socket));
      socket.on("data", () => {});
      return;
    }
    if (!isOpen) {
      refused++;
      socket.destroy();
      return;
    }
    const upstream = connect(Number(to.port), to.hostname);
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.once("close", () => sockets.delete(end));
      end.on("error", () => {});
    }
    forward(socket, upstream);
    forward(upstream, socket);
  });
  /** Copies `from` to `to` until either end is dead; a closed end closes the other, as a proxy does. */
  const forward = (from: Socket, to: Socket): void => {
    from.on("data", (chunk: Buffer) => {
      if (!dead.has(from) && !dead.has(to)) to.write(chunk);
    });
    from.once("end", () => {
      if (!dead.has(from) && !dead.has(to)) to.end();
    });
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get isOpen() {
      return isOpen && !stalled;
    },
    get refused() {
      return refused;
    },
    open: () => {
      isOpen = true;
      stalled = false;
    },
    shut: () => {
      isOpen = false;
      stalled = false;
      cutAll();
    },
    stall: () => {
      stalled = true;
      for (const socket of sockets) dead.add(socket);
    },
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        isOpen = false;
        cutAll();
        server.close(() => resolve());
      });
      return closed;
    },
  };
}
