import { createServer, type Server, type Socket } from "node:net";
import { inspect } from "node:util";
import { isSessionStoreError, type SessionStoreError } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

const PASSWORD = "s3cret-Passw0rd";

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

async function openFailure(options: Parameters<typeof PostgresSessionStore.open>[0]): Promise<SessionStoreError> {
  const error = await PostgresSessionStore.open(options).then(
    async (store) => {
      await store.close();
      throw new Error("expected the open to fail");
    },
    (failure: unknown) => failure,
  );
  if (!isSessionStoreError(error)) throw error;
  return error;
}

/** A port on 127.0.0.1 with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function expectNoPassword(error: SessionStoreError): void {
  expect(error.message).not.toContain(PASSWORD);
  expect(inspect(error, { depth: 10 })).not.toContain(PASSWORD);
  expect(JSON.stringify({ message: error.message, path: error.path })).not.toContain(PASSWORD);
}

describe("opening a PostgreSQL store that cannot be used", () => {
  it("names host:port and the cause when nothing listens there, without the password", async () => {
    const port = await closedPort();
    const error = await openFailure({ url: `postgres://chorus:${PASSWORD}@127.0.0.1:${port}/chorus` });
    expect(error.code).toBe("io");
    expect(error.message).toContain(`Cannot reach PostgreSQL at 127.0.0.1:${port}/chorus`);
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.path).toBe(`127.0.0.1:${port}/chorus`);
    expectNoPassword(error);
  });

  describe("a server that accepts and never answers", () => {
    let silent: Server;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      silent = createServer((socket) => {
        sockets.add(socket);
        socket.on("error", () => {});
      });
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    it("gives up after the connect timeout instead of hanging", async () => {
      const { port } = silent.address() as { port: number };
      const error = await openFailure({
        url: `postgres://chorus:${PASSWORD}@127.0.0.1:${port}/chorus`,
        connectTimeoutMs: 200,
      });
      expect(error.code).toBe("io");
      expect(error.message).toContain(`Cannot reach PostgreSQL at 127.0.0.1:${port}/chorus`);
      expect(error.message).toMatch(/timeout/i);
      expectNoPassword(error);
    });
  });

  it("says the database does not exist", async () => {
    const error = await openFailure({ url: `postgres://postgres@127.0.0.1:5432/${database.name}_missing` });
    expect(error.code).toBe("io");
    expect(error.message).toContain("has no such database");
  });

  it("refuses a URL that is not a postgres:// URL without echoing it", async () => {
    const notAUrl = await openFailure({ url: `chorus:${PASSWORD}@nowhere` });
    expect(notAUrl.code).toBe("invalid-input");
    expectNoPassword(notAUrl);
    const wrongScheme = await openFailure({ url: `mysql://chorus:${PASSWORD}@127.0.0.1/chorus` });
    expect(wrongScheme.code).toBe("invalid-input");
    expect(wrongScheme.message).toContain("postgres://");
    expectNoPassword(wrongScheme);
  });

  it("refuses a schema name that is not a plain SQL name", async () => {
    const error = await openFailure({ url: database.url, schema: 'x"; DROP TABLE sessions; --' });
    expect(error.code).toBe("invalid-input");
  });

  it("refuses group commit limits that are not whole numbers ≥ 1", async () => {
    const none = await openFailure({ url: database.url, groupCommit: { maxInFlight: 0 } });
    expect(none.code).toBe("invalid-input");
    expect(none.message).toContain("groupCommit.maxInFlight");
    const half = await openFailure({ url: database.url, groupCommit: { maxBatch: 1.5 } });
    expect(half.message).toContain("groupCommit.maxBatch");
  });
});
