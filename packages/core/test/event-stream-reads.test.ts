import { describe, expect, it } from "vitest";
import { EventStream } from "../src/index.js";

describe("EventStream", () => {
  it("delivers pushed events in order to an async iterator and resolves result() at end", async () => {
    const stream = new EventStream<number, string>();
    stream.push(1);
    stream.push(2);
    setTimeout(() => {
      stream.push(3);
      stream.end("done");
      stream.push(4);
    }, 0);
    const seen: number[] = [];
    for await (const n of stream) seen.push(n);
    expect(seen).toEqual([1, 2, 3]);
    await expect(stream.result()).resolves.toBe("done");
  });

  it("lets one consumer take queued events synchronously with shift(), sharing the iterator's position", async () => {
    const stream = new EventStream<string, void>();
    stream.push("a");
    stream.push("b");
    stream.push("c");
    expect(stream.queued).toBe(3);
    expect(stream.shift()).toBe("a");
    const iterator = stream[Symbol.asyncIterator]();
    await expect(iterator.next()).resolves.toEqual({ value: "b", done: false });
    expect(stream.shift()).toBe("c");
    expect(stream.shift()).toBeUndefined();
    expect(stream.queued).toBe(0);
  });

  it("ends with the completing event's result when given isComplete/extractResult", async () => {
    const stream = new EventStream<{ final: boolean; v: number }, number>(
      (e) => e.final,
      (e) => e.v,
    );
    stream.push({ final: false, v: 1 });
    stream.push({ final: true, v: 42 });
    expect(stream.ended).toBe(true);
    await expect(stream.result()).resolves.toBe(42);
  });
});
