import { SqliteMemoryStore } from "@chorus/memory";
import { afterAll, describe, expect, it } from "vitest";
import { memoryExtension } from "../src/index.js";

// Moved from the gateway's session-change-permission-rule test: `/memory off|on` changes the chat's shared session
// (in a group only admins make it, unless the group grants `memory`); reading, paging and exporting change nothing.

const memory = new SqliteMemoryStore({ path: ":memory:" });
afterAll(() => memory.close());

describe("which change /memory makes (its sessionChange)", () => {
  const command = memoryExtension({ store: memory }).commands?.find((candidate) => candidate.name === "memory");
  it.each([
    [[], undefined],
    [["page", "2"], undefined],
    [["export"], undefined],
    [["OFF"], "memory"],
    [["on"], "memory"],
  ] as const)("/memory %j → %s", (args, change) => {
    expect(command?.sessionChange?.(args)).toBe(change);
  });
});
