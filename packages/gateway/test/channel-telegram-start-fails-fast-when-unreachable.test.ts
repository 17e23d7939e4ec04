import { createServer, type Server } from "node:net";
import { afterEach, expect, it } from "vitest";
import { ChannelError } from "../src/channel/index.js";
import { createTelegramChannel } from "../src/channels/index.js";

let door: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (door === undefined ? resolve() : door.close(() => resolve())));
  door = undefined;
});

it("rejects start at once with a retryable network error when Telegram cannot be reached", async () => {
  // Every connection is cut at once, as when Telegram is unreachable at boot.
  let attempts = 0;
  const server = createServer((socket) => {
    attempts++;
    socket.destroy();
  });
  door = server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const channel = createTelegramChannel({ accountId: "tg", token: "123:abc", apiRoot: `http://127.0.0.1:${port}` });

  // grammy's own init (and auto-retry) would retry this without end, backing off up to an hour.
  const error = await channel
    .start(() => {})
    .then(
      () => undefined,
      (reason: unknown) => reason,
    );
  expect(error).toBeInstanceOf(ChannelError);
  expect(error).toMatchObject({ kind: "network", retryable: true });
  expect(attempts).toBe(1);
  // Nothing is left running: a later start on a reachable Telegram begins afresh.
  await expect(channel.stop()).resolves.toBeUndefined();
});
