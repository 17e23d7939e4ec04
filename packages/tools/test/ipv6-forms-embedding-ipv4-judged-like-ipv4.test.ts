import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webFetchTool } from "../src/builtins/web-fetch-tool.js";
import { isPrivateAddress } from "../src/web/private-address.js";
import { runTool } from "./support/temp-workspace.js";

describe("IPv6 forms that carry an IPv4 address are judged like that IPv4 address", () => {
  const cases: [form: string, privateOne: string, publicOne: string][] = [
    ["IPv4-compatible, hex", "::7f00:1", "::808:808"],
    ["IPv4-compatible, dotted", "::127.0.0.1", "::8.8.8.8"],
    ["IPv4-compatible, metadata", "::a9fe:a9fe", "::101:101"],
    ["IPv4-mapped", "::ffff:192.168.0.1", "::ffff:8.8.8.8"],
    ["IPv4-mapped, hex", "::ffff:a00:1", "::ffff:808:808"],
    ["IPv4-translated", "::ffff:0:127.0.0.1", "::ffff:0:8.8.8.8"],
    ["IPv4-translated, hex", "::ffff:0:a9fe:a9fe", "::ffff:0:808:808"],
    ["NAT64 well-known prefix", "64:ff9b::10.0.0.1", "64:ff9b::8.8.8.8"],
    ["NAT64 well-known prefix, hex", "64:ff9b::7f00:1", "64:ff9b::808:808"],
    ["6to4", "2002:7f00:1::1", "2002:808:808::1"],
    ["6to4, private network", "2002:c0a8:101::", "2002:101:101::"],
    // Teredo: server 4.4.4.4 (0x04040404); client 127.0.0.1 XOR 0xffffffff = 0x80fffffe, 8.8.8.8 -> 0xf7f7f7f7.
    ["Teredo client", "2001:0:404:404::80ff:fffe", "2001:0:404:404::f7f7:f7f7"],
    ["Teredo server", "2001:0:a00:1::f7f7:f7f7", "2001:0:808:808::f7f7:f7f7"],
    ["ISATAP interface id", "2001:4860::5efe:7f00:1", "2001:4860::5efe:808:808"],
  ];

  for (const [form, privateOne, publicOne] of cases) {
    it(`${form}: ${privateOne} is refused, ${publicOne} is not`, () => {
      expect(isPrivateAddress(privateOne)).toBe(true);
      expect(isPrivateAddress(publicOne)).toBe(false);
    });
  }

  it("local-use NAT64 (64:ff9b:1::/48) is refused outright: its IPv4 part cannot be located", () => {
    expect(isPrivateAddress("64:ff9b:1::808:808")).toBe(true);
    expect(isPrivateAddress("64:ff9b:1:7f00:1::")).toBe(true);
  });

  it("zone ids do not hide a loopback or link-local address, and plain public IPv6 stays public", () => {
    expect(isPrivateAddress("fe80::1%eth0")).toBe(true);
    expect(isPrivateAddress("::1%lo")).toBe(true);
    expect(isPrivateAddress("2606:4700:4700::1111")).toBe(false);
  });
});

describe("web_fetch refuses a URL whose IPv6 literal embeds loopback", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end("loopback secret"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("[::7f00:1], [::127.0.0.1], [::ffff:0:127.0.0.1] and [64:ff9b::7f00:1] never reach the loopback server", async () => {
    const tool = webFetchTool();
    for (const host of [
      "[::7f00:1]",
      "[::127.0.0.1]",
      "[::ffff:0:127.0.0.1]",
      "[64:ff9b::7f00:1]",
      "[2002:7f00:1::]",
    ]) {
      const out = await runTool([tool], "web_fetch", { url: `http://${host}:${port}/` });
      expect(out.isError, host).toBe(true);
      expect(out.text, host).toMatch(/private or local address; fetch refused/);
      expect(out.text, host).not.toContain("loopback secret");
    }
  });
});
