import { defineTool, type StreamContext } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { GatewayExtension } from "../src/extension/index.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const KEY = "main:main:test:dm:admin";
const admin = { chatType: "dm" as const, sender: { id: "admin", name: "Admin" } };

function toolNamesOf(context: StreamContext): string[] {
  return (context.tools ?? []).map((tool) => tool.name);
}

const note = defineTool({
  name: "note",
  description: "keeps a note",
  parameters: z.object({ text: z.string() }),
  category: "info",
  execute: async () => ({ content: [{ type: "text", text: "kept" }] }),
});

describe("an extension's session tools, commit writes, session endings and stopping", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("narrows one session's tools per turn; a throwing hook changes nothing and the message is answered", async () => {
    let hide = false;
    const hider: GatewayExtension = {
      name: "hider",
      toolsFor: () => [note],
      sessionTools: (_key, tools) => (hide ? tools.filter((tool) => tool.name !== "note") : tools),
    };
    const broken: GatewayExtension = {
      name: "broken",
      sessionTools: () => {
        throw new Error("boom");
      },
    };
    h = await startHarness({ script: () => "ok", gateway: { extensions: [hider, broken] } });
    await h.send({ ...admin, text: "first" });
    hide = true;
    await h.send({ ...admin, text: "second" });
    hide = false;
    await h.send({ ...admin, text: "third" });
    const offered = h.streamFn.calls.map((call) => toolNamesOf(call.context).includes("note"));
    expect(offered).toEqual([true, false, true]);
    expect(h.channel.transcript("dm-admin")).toEqual(["ok", "ok", "ok"]);
  });

  it("joins every extension's writes to the turn's commit, and each hears it committed", async () => {
    const heard: string[] = [];
    const writer = (name: string): GatewayExtension => ({
      name,
      commitWrites: (sessionKey, messages) => {
        if (!messages.some((message) => message.role === "assistant")) return undefined;
        return {
          writes: {},
          committed: (sideWritten) => heard.push(`${name} committed ${sessionKey} inside=${sideWritten}`),
          failed: () => heard.push(`${name} failed`),
        };
      },
    });
    h = await startHarness({ script: () => "ok", gateway: { extensions: [writer("a"), writer("b")] } });
    await h.send({ ...admin, text: "hello" });
    // The memory store has no transaction to join: the writes are the extensions' to make after the commit.
    expect(heard).toEqual([`a committed ${KEY} inside=false`, `b committed ${KEY} inside=false`]);
  });

  it("hears /new while the conversation is still in the transcript", async () => {
    const seen: number[] = [];
    let h2: Harness | undefined;
    const ending: GatewayExtension = {
      name: "ending",
      sessionEnding: async ({ sessionKey, agentId }) => {
        expect(agentId).toBe("main");
        seen.push((await h2!.store.readTranscript(sessionKey)).length);
      },
    };
    h = await startHarness({ script: () => "ok", gateway: { extensions: [ending] } });
    h2 = h;
    await h.send({ ...admin, text: "remember this conversation" });
    await h.send({ ...admin, text: "/new" });
    expect(seen).toEqual([2]);
    expect(await h.store.readTranscript(KEY)).toEqual([]);
  });

  it("is told the gateway stops before the running turns are waited for, so its background work ends first", async () => {
    let release: (() => void) | undefined;
    const events: string[] = [];
    const background: GatewayExtension = {
      name: "background",
      start: (context) => {
        context.track(
          new Promise<void>((resolve) => {
            release = resolve;
          }),
        );
      },
      stopping: () => {
        events.push("stopping");
        release?.();
      },
      stop: () => {
        events.push("stop");
      },
    };
    h = await startHarness({ script: () => "ok", gateway: { extensions: [background] } });
    await h.close();
    h = undefined;
    expect(events).toEqual(["stopping", "stop"]);
  });
});
