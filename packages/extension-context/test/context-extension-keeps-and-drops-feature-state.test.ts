import { type Harness, startHarness } from "@chorus/gateway-testing";
import { writeSessionSetting } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { contextExtension } from "../src/context-extension.js";
import type { ContextFeature } from "../src/context-feature.js";
import { contextSettingsSchema } from "../src/context-settings-schema.js";

const config = {
  agents: [
    { id: "main", model: "fake-model" },
    { id: "other", model: "fake-model" },
  ],
  bindings: [{ agentId: "other", match: { channel: "test", peer: "user-2" } }],
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: ["user-1"] }],
};

/** A feature that counts its turns in the session's settings and reminds the model of the count. */
function turnCounter(log: string[]): ContextFeature {
  return {
    name: "counter",
    settingsKey: "counter",
    sessionParts: (session, _settings, context) => {
      let turns = typeof session.settings.counter === "number" ? session.settings.counter : 0;
      log.push(`built ${session.agentId} with ${turns}`);
      return {
        reminders: [() => [{ kind: "counter", text: `turns so far: ${turns}` }]],
        onEvent: (event) => {
          if (event.type !== "agent_end") return;
          turns++;
          context.track(writeSessionSetting(context.store, session.sessionKey, "counter", turns));
        },
        release: () => log.push(`released ${session.agentId}`),
      };
    },
  };
}

describe("the context extension keeps a feature's state with the session and drops it on /new", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("state survives the Agent being let go, /new forgets it, and an agent without settings gets nothing", async () => {
    const log: string[] = [];
    const requests: string[] = [];
    h = await startHarness({
      config,
      script: (context) => {
        requests.push(JSON.stringify(context.messages));
        return "ok";
      },
      gateway: {
        idleEvictMs: 0,
        extensions: [
          contextExtension({
            agents: { main: contextSettingsSchema.parse({}) },
            features: [turnCounter(log)],
          }),
        ],
      },
    });
    await h.send({ text: "one" });
    await h.send({ text: "two" });
    expect(requests[1]).toContain("turns so far: 1");
    expect(log).toEqual(["built main with 0", "released main", "built main with 1", "released main"]);

    await h.send({ text: "/new" });
    await h.send({ text: "three" });
    expect(requests.at(-1)).toContain("turns so far: 0");

    // The other agent has no context settings: no part was built for it.
    await h.send({ chatId: "user-2", sender: { id: "user-2", name: "Two" }, text: "hello" });
    expect(requests.at(-1)).toContain("hello");
    expect(requests.at(-1)).not.toContain("turns so far");
    expect(log.filter((line) => line.includes("other"))).toEqual([]);
  });
});
