import { describeCommandRowsWalkedByAGuest } from "@chorus/gateway-testing";
import { SqliteMemoryStore } from "@chorus/memory";
import { afterAll } from "vitest";
import { memoryExtension } from "../src/index.js";

// The memory extension's rows of docs/security.md's command table (`commandPermissions`): a guest in a group tries
// each example; a refusal also leaves the group's facts as they were.
const memory = new SqliteMemoryStore({ path: ":memory:" });
afterAll(() => memory.close());

describeCommandRowsWalkedByAGuest("/memory", {
  extension: memoryExtension({ store: memory }),
  setUp: async () => {
    await memory.remember({
      scope: "group:test:main:guests",
      text: "the group meets on Fridays",
      source: { sessionKey: "s", at: 1 },
    });
  },
  state: () => memory.countByScope(),
});
