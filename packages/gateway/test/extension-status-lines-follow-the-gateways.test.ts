import { afterEach, describe, expect, it } from "vitest";
import type { GatewayExtension } from "../src/extension/index.js";
import type { GatewayLogger } from "../src/logging/gateway-logger.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("/status with extensions' lines (statusLines)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("shows each extension's lines after the gateway's, in extension order; a throwing one is logged and shows none", async () => {
    const errors: string[] = [];
    const logger: GatewayLogger = {
      info: () => {},
      warn: () => {},
      error: (_fields, message) => errors.push(message ?? ""),
    };
    const asked: unknown[] = [];
    const first: GatewayExtension = {
      name: "first",
      statusLines: (session) => {
        asked.push(session);
        return [`**Mood** calm (${String(session.settings.mood ?? "unset")})`];
      },
    };
    const broken: GatewayExtension = {
      name: "broken",
      statusLines: () => {
        throw new Error("boom");
      },
    };
    const last: GatewayExtension = { name: "last", statusLines: async () => ["**Plan** none", "**Todos** 0 open"] };
    h = await startHarness({ gateway: { logger, extensions: [first, broken, last] } });
    await h.send({ text: "hello" });
    const key = (await h.store.listSessions())[0]!.key;
    await h.store.updateSession(key, { settings: { mood: "sunny" } });
    await h.send({ text: "/status" });
    const lines = h.channel.transcript("dm-user-1").at(-1)!.split("\n");
    expect(lines[0]).toContain("**Agent** main");
    expect(lines.slice(-3)).toEqual(["**Mood** calm (sunny)", "**Plan** none", "**Todos** 0 open"]);
    expect(asked).toEqual([{ sessionKey: key, agentId: "main", settings: { mood: "sunny" } }]);
    expect(errors).toEqual(["extension status hook failed"]);
  });

  it("shows only the gateway's lines without an extension that has some", async () => {
    h = await startHarness({ gateway: { extensions: [{ name: "quiet" }] } });
    await h.send({ text: "/status" });
    expect(h.channel.transcript("dm-user-1").at(-1)!.split("\n").at(-1)).toMatch(/^\*\*Last compaction\*\*/);
  });
});
