import { createServer } from "node:net";

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a server a child process will start (a bot's webhook).
 * Contract: binds port 0, reads the port and closes it again; another process may still take it in between.
 * @example
 * const port = await freePort(); // then `webhook: { port }` in the bot's config
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
