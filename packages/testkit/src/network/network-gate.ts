import { type AddressInfo, connect, createServer, type Socket } from "node:net";

/** A TCP door in front of a local server, for tests of a platform that cannot be reached for a while. */
export interface NetworkGate {
  /** `http://127.0.0.1:<port>`: give this to a client instead of the server's own address. */
  readonly url: string;
  readonly port: number;
  /** True while connections pass through. */
  readonly isOpen: boolean;
  /** Connections cut while the gate was shut. */
  readonly refused: number;
  /** Lets new connections through to the server. */
  open(): void;
  /** Cuts every connection under way and every new one at once, as an unreachable host looks to a client. */
  shut(): void;
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
  let isOpen = options.open ?? true;
  let refused = 0;
  let closed: Promise<void> | undefined;
  const cutAll = (): void => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const server = createServer((socket) => {
    socket.on("error", () => {});
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
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get isOpen() {
      return isOpen;
    },
    get refused() {
      return refused;
    },
    open: () => {
      isOpen = true;
    },
    shut: () => {
      isOpen = false;
      cutAll();
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
