import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AttachmentFetchError, downloadBounded } from "../src/index.js";

// Issue #32: a channel downloads what people send with the bot's credentials — from the platform's own hosts only,
// and never more than the cap, however the server answers.

interface Host {
  readonly origin: string;
  /** Each request's path and authorization header, in arrival order. */
  readonly seen: { path: string; authorization: string | undefined }[];
  /** Paths whose response ended before its body was all written (the client hung up). */
  readonly cutOff: string[];
  close(): Promise<void>;
}

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function host(route: (req: IncomingMessage, res: ServerResponse, host: Host) => void): Promise<Host> {
  let server: Server | undefined;
  const seen: Host["seen"] = [];
  const cutOff: string[] = [];
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? "/", authorization: req.headers.authorization });
    res.on("close", () => {
      if (!res.writableFinished) cutOff.push(req.url ?? "/");
    });
    route(req, res, made);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const made: Host = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    cutOff,
    close: () =>
      new Promise<void>((resolve) => {
        const closing = server;
        server = undefined;
        if (closing === undefined) return resolve();
        closing.closeAllConnections();
        closing.close(() => resolve());
      }),
  };
  hosts.push(made);
  return made;
}

const FILE = new Uint8Array(Array.from({ length: 300 }, (_, i) => i % 251));
const CREDENTIALS = { authorization: "Bearer xoxb-secret" };

/** Writes `total` bytes in 1 KiB chunks, `gapMs` apart, unless the client hangs up first. */
function trickle(res: ServerResponse, total: number, gapMs: number): void {
  let written = 0;
  const next = (): void => {
    if (res.destroyed) return;
    if (written >= total) {
      res.end();
      return;
    }
    const size = Math.min(1024, total - written);
    written += size;
    res.write(new Uint8Array(size).fill(7));
    setTimeout(next, gapMs);
  };
  next();
}

async function refusal(download: Promise<unknown>): Promise<AttachmentFetchError> {
  const error = await download.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AttachmentFetchError);
  return error as AttachmentFetchError;
}

describe("downloadBounded", () => {
  it("downloads a file from an allowed origin, byte for byte, with the served type and the credentials", async () => {
    const platform = await host((_req, res) => {
      res.writeHead(200, { "content-type": "image/png; charset=binary", "content-length": String(FILE.byteLength) });
      res.end(FILE);
    });
    const fetched = await downloadBounded(`${platform.origin}/f/1.png`, {
      allowedOrigins: [platform.origin],
      maxBytes: 1_000,
      headers: CREDENTIALS,
    });
    expect(fetched.bytes).toEqual(FILE);
    expect(fetched.mimeType).toBe("image/png");
    expect(platform.seen).toEqual([{ path: "/f/1.png", authorization: "Bearer xoxb-secret" }]);
  });

  it("refuses a declared length over the cap without reading the body", async () => {
    const platform = await host((_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": String(64 * 1024) });
      // The first kilobyte, then the rest only after a long pause: a client that read on would wait for it.
      trickle(res, 64 * 1024, 5_000);
    });
    const started = Date.now();
    const error = await refusal(
      downloadBounded(`${platform.origin}/big.pdf`, { allowedOrigins: [platform.origin], maxBytes: 4_096 }),
    );
    expect(error.reason).toBe("too-large");
    expect(error.retryable).toBe(false);
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect.poll(() => platform.cutOff).toEqual(["/big.pdf"]);
  });

  it("cuts off a chunked body (no declared length) once it grows past the cap", async () => {
    const platform = await host((_req, res) => {
      res.writeHead(200, { "content-type": "video/mp4" });
      trickle(res, 1024 * 1024, 5);
    });
    const error = await refusal(
      downloadBounded(`${platform.origin}/endless.mp4`, { allowedOrigins: [platform.origin], maxBytes: 8_000 }),
    );
    expect(error.reason).toBe("too-large");
    await expect.poll(() => platform.cutOff).toEqual(["/endless.mp4"]);
  });

  it("accepts a file exactly at the cap", async () => {
    const platform = await host((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write(FILE.slice(0, 100));
      res.end(FILE.slice(100));
    });
    const fetched = await downloadBounded(`${platform.origin}/exact`, {
      allowedOrigins: [platform.origin],
      maxBytes: FILE.byteLength,
    });
    expect(fetched.bytes).toEqual(FILE);
  });

  it("refuses a URL on another host without requesting it", async () => {
    const elsewhere = await host((_req, res) => res.end("nothing to see"));
    const platform = await host((_req, res) => res.end());
    const error = await refusal(
      downloadBounded(`${elsewhere.origin}/steal`, {
        allowedOrigins: [platform.origin],
        maxBytes: 1_000,
        headers: CREDENTIALS,
      }),
    );
    expect(error.reason).toBe("host-not-allowed");
    for (const url of ["file:///etc/passwd", "not a url", `ftp://127.0.0.1/x`]) {
      expect((await refusal(downloadBounded(url, { allowedOrigins: [platform.origin], maxBytes: 1 }))).reason).toBe(
        "host-not-allowed",
      );
    }
    expect(elsewhere.seen).toEqual([]);
    expect(platform.seen).toEqual([]);
  });

  it("refuses a redirect to another origin, and the credentials never reach it", async () => {
    const elsewhere = await host((_req, res) => res.end("<html>Sign in</html>"));
    const platform = await host((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.origin}/signin?redir=%2Ffiles` });
      res.end();
    });
    const error = await refusal(
      downloadBounded(`${platform.origin}/files/1`, {
        allowedOrigins: [platform.origin],
        maxBytes: 1_000,
        headers: CREDENTIALS,
      }),
    );
    expect(error.reason).toBe("host-not-allowed");
    expect(platform.seen).toEqual([{ path: "/files/1", authorization: "Bearer xoxb-secret" }]);
    expect(elsewhere.seen).toEqual([]);
  });

  it("follows redirects within the allowed origins, relative or absolute, each hop checked", async () => {
    const cdn = await host((req, res) => {
      if (req.url === "/real") {
        res.writeHead(200, { "content-type": "audio/ogg" });
        res.end(FILE);
        return;
      }
      res.writeHead(404);
      res.end();
    });
    const platform = await host((req, res) => {
      if (req.url === "/start") res.writeHead(301, { location: "/moved" });
      else res.writeHead(307, { location: `${cdn.origin}/real` });
      res.end();
    });
    const fetched = await downloadBounded(`${platform.origin}/start`, {
      allowedOrigins: [platform.origin, cdn.origin],
      maxBytes: 1_000,
      headers: CREDENTIALS,
    });
    expect(fetched).toEqual({ bytes: FILE, mimeType: "audio/ogg" });
    expect(platform.seen.map((s) => s.path)).toEqual(["/start", "/moved"]);
    expect(cdn.seen.map((s) => s.path)).toEqual(["/real"]);
  });

  it("gives up on a redirect loop", async () => {
    const platform = await host((_req, res) => {
      res.writeHead(302, { location: "/again" });
      res.end();
    });
    const error = await refusal(
      downloadBounded(`${platform.origin}/again`, { allowedOrigins: [platform.origin], maxBytes: 1_000 }),
    );
    expect(error.reason).toBe("network");
    expect(platform.seen.length).toBeLessThanOrEqual(4);
  });

  it("tells a missing file (404, 410) from a refused one (401, 403) and from a failing server (5xx)", async () => {
    const platform = await host((req, res) => {
      res.writeHead(Number(req.url?.slice(1)), { "content-type": "text/plain" });
      res.end("no");
    });
    const reasonOf = async (status: number) =>
      (
        await refusal(
          downloadBounded(`${platform.origin}/${status}`, { allowedOrigins: [platform.origin], maxBytes: 9 }),
        )
      ).reason;
    expect(await reasonOf(404)).toBe("not-found");
    expect(await reasonOf(410)).toBe("not-found");
    expect(await reasonOf(401)).toBe("forbidden");
    expect(await reasonOf(403)).toBe("forbidden");
    const failing = await refusal(
      downloadBounded(`${platform.origin}/503`, { allowedOrigins: [platform.origin], maxBytes: 9 }),
    );
    expect(failing.reason).toBe("network");
    expect(failing.retryable).toBe(true);
  });

  it("fails as a network error when the platform cannot be reached, and stops when aborted", async () => {
    const gone = await host((_req, res) => res.end());
    const origin = gone.origin;
    await gone.close();
    const unreachable = await refusal(downloadBounded(`${origin}/x`, { allowedOrigins: [origin], maxBytes: 9 }));
    expect(unreachable.reason).toBe("network");

    const slow = await host((_req, res) => {
      res.writeHead(200);
      trickle(res, 64 * 1024, 1_000);
    });
    const abort = new AbortController();
    const download = downloadBounded(`${slow.origin}/slow`, {
      allowedOrigins: [slow.origin],
      maxBytes: 1024 * 1024,
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), 100);
    const error = await refusal(download);
    expect(error.reason).toBe("network");
    await expect.poll(() => slow.cutOff).toEqual(["/slow"]);
  });
});
