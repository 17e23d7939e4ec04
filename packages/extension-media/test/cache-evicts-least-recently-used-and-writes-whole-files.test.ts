import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AttachmentCache, ByteBudget, sha256Of } from "../src/index.js";

const MB = 1024 * 1024;

describe("the attachment cache", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), "chorus-cache-"));
    dirs.push(dir);
    return dir;
  };

  it("keeps files by content hash and drops the least recently used over its cap", async () => {
    const dir = fresh();
    const cache = new AttachmentCache(dir, 3.5 * MB);
    const files = [1, 2, 3].map((n) => new Uint8Array(MB).fill(n));
    const [a, b, c] = await Promise.all(files.map((bytes) => cache.putBlob(bytes)));
    expect(a).toBe(sha256Of(files[0] as Uint8Array));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // `a` is used again, so `b` is now the least recently used.
    expect((await cache.blob(a as string))?.[0]).toBe(1);
    await cache.putBlob(new Uint8Array(MB).fill(4));
    expect(await cache.blob(b as string)).toBeUndefined();
    expect(await cache.blob(a as string)).toBeDefined();
    expect(await cache.blob(c as string)).toBeDefined();
    expect(cache.heldBytes).toBeLessThanOrEqual(3.5 * MB);
  });

  it("leaves no temporary file behind and counts what an earlier process kept", async () => {
    const dir = fresh();
    const first = new AttachmentCache(dir, 10 * MB);
    await first.putBlob(new Uint8Array(MB).fill(9));
    await first.putDerived(sha256Of("x"), "image-1568", new Uint8Array(10));
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
    const second = new AttachmentCache(dir, 10 * MB);
    await second.source("nothing");
    expect(second.heldBytes).toBe(MB + 10);
  });

  it("refuses keys that are not hashes (no path tricks)", async () => {
    const cache = new AttachmentCache(fresh(), MB);
    await expect(cache.blob("../../etc/passwd")).rejects.toThrow("not a sha256");
    await expect(cache.derived(sha256Of("x"), "../x")).rejects.toThrow("not a cache key");
  });
});

describe("the byte budget", () => {
  it("never holds more than its cap; waiting reservations go in order; release is idempotent", async () => {
    const budget = new ByteBudget(10);
    const first = await budget.acquire(6);
    const order: string[] = [];
    const second = budget.acquire(6).then((release) => {
      order.push("second");
      return release;
    });
    const third = budget.acquire(1).then((release) => {
      order.push("third");
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    first();
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(["second", "third"]);
    expect(budget.peak).toBeLessThanOrEqual(10);
    expect(budget.held).toBe(0);
    // A request larger than the cap takes it alone instead of waiting forever.
    const whole = await budget.acquire(50);
    expect(budget.held).toBe(10);
    whole();
  });
});
