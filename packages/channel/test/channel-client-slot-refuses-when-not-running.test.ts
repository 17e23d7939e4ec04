import { describe, expect, it } from "vitest";
import type { InboundMessage } from "../src/index.js";
import { ChannelError, ClientSlot, inboundDelivery } from "../src/index.js";

// The start/stop/call scaffolding every platform adapter shares: what a channel does outside its running life.
const toChannelError = (error: unknown, operation: string) =>
  new ChannelError("network", `fake ${operation}: ${error instanceof Error ? error.message : String(error)}`);

describe("ClientSlot", () => {
  it("refuses calls before start and after stop, and a second start while running", async () => {
    const slot = new ClientSlot<{ send(): Promise<string> }>("fake", toChannelError);
    await expect(slot.call("send", (client) => client.send())).rejects.toMatchObject({
      kind: "unknown",
      message: "fake send: the channel is not started",
    });

    slot.claim();
    slot.hold({ send: async () => "sent" });
    expect(() => slot.claim()).toThrow("fake channel is already started");
    await expect(slot.call("send", (client) => client.send())).resolves.toBe("sent");

    expect(slot.release()).toBeDefined();
    await expect(slot.call("send", (client) => client.send())).rejects.toThrow("not started");
    expect(() => slot.claim()).not.toThrow();
  });

  it("turns a platform failure into the adapter's ChannelError, naming the operation", async () => {
    const slot = new ClientSlot<object>("fake", toChannelError);
    slot.hold({});
    const failure = slot.call("edit", () => Promise.reject(new Error("ECONNRESET")));
    await expect(failure).rejects.toBeInstanceOf(ChannelError);
    await expect(failure).rejects.toMatchObject({ kind: "network", message: "fake edit: ECONNRESET" });
  });

  it("stops the channel when connecting fails, then rejects with the failure as a start error", async () => {
    const slot = new ClientSlot<object>("fake", toChannelError);
    slot.hold({});
    const stopped: string[] = [];
    const starting = slot.connect(
      () => Promise.reject(new Error("401 Unauthorized")),
      async () => {
        stopped.push(slot.release() === undefined ? "nothing" : "client");
      },
    );
    await expect(starting).rejects.toMatchObject({ message: "fake start: 401 Unauthorized" });
    expect(stopped).toEqual(["client"]);
  });
});

describe("inboundDelivery", () => {
  it("skips events that are no message, and hands a sink's failure to onError instead of rejecting", async () => {
    const errors: unknown[] = [];
    const received: string[] = [];
    const deliver = inboundDelivery(
      async (message) => {
        received.push(message.text);
        if (message.text === "boom") throw new Error("sink failed");
      },
      (error) => errors.push(error),
    );
    await deliver(undefined);
    await deliver({ text: "hi" } as InboundMessage);
    await expect(deliver({ text: "boom" } as InboundMessage)).resolves.toBeUndefined();
    expect(received).toEqual(["hi", "boom"]);
    expect(errors).toEqual([new Error("sink failed")]);
  });
});
