import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { webFetchTool } from "../src/builtins/web-fetch-tool.js";
import { isPrivateAddress } from "../src/web/private-address.js";
import { webFetch } from "../src/web/web-fetch.js";
import { openSessionOutputs } from "../src/workspace/session-outputs.js";
import { makeTempDir, runTool } from "./support/temp-workspace.js";

describe("web_fetch", () => {
  let server: Server;
  let base: string;
  let port: number;

  beforeEach(async () => {
    server = createServer((req, res) => {
      if (req.url === "/html") {
        res.setHeader("content-type", "text/html");
        res.end(
          "<html><head><title>t</title><script>evil()</script></head><body><p>Hello &amp; welcome</p></body></html>",
        );
      } else if (req.url === "/big") {
        res.setHeader("content-type", "text/plain");
        res.end("z".repeat(50_000));
      } else if (req.url === "/redirect-private") {
        res.statusCode = 302;
        res.setHeader("location", `http://localhost:${port}/html`);
        res.end();
      } else if (req.url === "/redirect-ok") {
        res.statusCode = 301;
        res.setHeader("location", "/html");
        res.end();
      } else if (req.url === "/png") {
        res.setHeader("content-type", "image/png");
        res.end(Buffer.from([137, 80, 78, 71]));
      } else if (req.url === "/hang") {
        // never answers; the client's time cap must end the call
      } else {
        res.statusCode = 404;
        res.end("nope");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const allowLoopback = { allowedHosts: ["127.0.0.1"] };

  it("fetches a page from an allowed local server and turns HTML into text", async () => {
    const tool = webFetchTool(allowLoopback);
    const out = await runTool([tool], "web_fetch", { url: `${base}/html` });
    expect(out.text).toBe(`HTTP 200 ${base}/html\ncontent-type: text/html\n\nHello & welcome`);
  });

  it("follows a redirect on an allowed host", async () => {
    const page = await webFetch({ url: `${base}/redirect-ok` }, allowLoopback);
    expect(page.finalUrl).toBe(`${base}/html`);
  });

  it("refuses loopback, private and metadata addresses without the allow option", async () => {
    const tool = webFetchTool();
    for (const url of [
      `${base}/html`,
      `http://localhost:${port}/html`,
      `http://[::1]:${port}/`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.1.2.3/",
      `http://[::ffff:127.0.0.1]:${port}/html`,
    ]) {
      const out = await runTool([tool], "web_fetch", { url });
      expect(out.isError, url).toBe(true);
      expect(out.text, url).toMatch(/private or local address; fetch refused/);
    }
  });

  it("re-checks every redirect hop: a redirect to a host that is not allowed is refused", async () => {
    await expect(webFetch({ url: `${base}/redirect-private` }, allowLoopback)).rejects.toThrow(
      /localhost resolves to .*private or local address/,
    );
  });

  it("refuses schemes other than http and https", async () => {
    await expect(webFetch({ url: "file:///etc/passwd" })).rejects.toThrow(/Only http and https/);
    await expect(webFetch({ url: "ftp://example.com/x" })).rejects.toThrow(/Only http and https/);
  });

  it("caps the body size and the output size", async () => {
    const page = await webFetch({ url: `${base}/big` }, { ...allowLoopback, maxBytes: 1000 });
    expect(page.truncated).toBe(true);
    expect(page.text.length).toBe(1000);
    const saved = makeTempDir("chorus-outputs-test-");
    onTestFinished(saved.cleanup);
    const tool = webFetchTool({ ...allowLoopback, maxOutputChars: 2000 }, openSessionOutputs({ root: saved.dir }));
    const out = await runTool([tool], "web_fetch", { url: `${base}/big` });
    expect(out.text).toContain("48000 of 50000 characters cut");
  });

  it("refuses non-text bodies and ends a hanging request at the time cap", async () => {
    await expect(webFetch({ url: `${base}/png` }, allowLoopback)).rejects.toThrow(/image\/png, which is not text/);
    await expect(webFetch({ url: `${base}/hang` }, { ...allowLoopback, timeoutMs: 200 })).rejects.toThrow(
      /Timed out after 200 ms/,
    );
  });
});

describe("isPrivateAddress", () => {
  it("classifies addresses", () => {
    const privateOnes = [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "100.64.0.1",
      "::1",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:10.0.0.1",
      "::ffff:7f00:1",
      "not-an-ip",
    ];
    const publicOnes = ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "172.32.0.1"];
    expect(privateOnes.filter((a) => !isPrivateAddress(a))).toEqual([]);
    expect(publicOnes.filter((a) => isPrivateAddress(a))).toEqual([]);
  });
});
