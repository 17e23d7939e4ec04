import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A load balancer in front of the instances' webhook servers, as an operator would put one. */
export interface RoundRobinBalancer {
  /** `http://127.0.0.1:<port>`: the public base URL the instances register (append the webhook path). */
  readonly url: string;
  /** Requests passed on, per upstream port. */
  readonly forwarded: ReadonlyMap<number, number>;
  /**
   * Sends each request to the port `route` picks from its body (an upstream of `ports`; undefined: the next one in
   * turn), as a balancer that routes by chat would; `undefined` goes back to round robin.
   */
  routeBy(route: ((body: Buffer) => number | undefined) | undefined): void;
  close(): Promise<void>;
}

/**
 * Starts an HTTP round-robin balancer on 127.0.0.1 over `ports` (127.0.0.1 too): each request goes to the next port
 * (or the one `routeBy` picks), and on to the one after when an upstream refuses the connection (a killed instance),
 * 502 when none takes it.
 * Contract: `ports` may be changed in place by the caller (instances added) — the next request sees the new list.
 */
export async function startRoundRobinBalancer(ports: number[]): Promise<RoundRobinBalancer> {
  let next = 0;
  let route: ((body: Buffer) => number | undefined) | undefined;
  const forwarded = new Map<number, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const routed = route === undefined ? -1 : ports.indexOf(route(body) ?? -1);
      const first = routed >= 0 ? routed : next;
      if (routed < 0) next = (next + 1) % Math.max(1, ports.length);
      const tryFrom = (attempt: number): void => {
        if (attempt >= ports.length) {
          res.writeHead(502).end();
          return;
        }
        const port = ports[(first + attempt) % ports.length] as number;
        const upstream = request(
          { host: "127.0.0.1", port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            forwarded.set(port, (forwarded.get(port) ?? 0) + 1);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on("error", () => tryFrom(attempt + 1));
        upstream.end(body);
      };
      tryFrom(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    routeBy: (by) => {
      route = by;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
