import { describe, expect, it } from "vitest";
import { type SessionChange, sessionChangeSchema } from "../src/config/session-change-schema.js";
import { mayAnswerRun, mayChangeSession, sessionChangeOf } from "../src/permissions/session-change-permission.js";

/** Which change a builtin command makes. */
function changeOf(command: string, args: readonly string[]) {
  return sessionChangeOf(command, args);
}

// The extensions' commands declare their own (`sessionChange`), tested in their packages: `/memory` in
// @chorus/extension-memory (memory-off-is-a-session-change), `/plan` in @chorus/extension-plan-mode
// (plan-is-a-session-change).
describe("which change a builtin command makes (sessionChangeOf)", () => {
  it.each([
    ["model", [], undefined],
    ["model", ["gpt-5"], "model"],
    ["queue", [], undefined],
    ["queue", ["interrupt"], "queue"],
    ["new", [], "new"],
    ["reset", [], "new"],
    ["stop", [], "stop"],
    ["compact", [], "compact"],
    ["status", [], undefined],
    ["help", [], undefined],
    ["goal", ["stop"], undefined],
  ] as const)("/%s %j → %s", (command, args, change) => {
    expect(changeOf(command, args)).toBe(change);
  });
});

describe("who may change a session (mayChangeSession)", () => {
  const admin = { isAdmin: true };
  const member = { isAdmin: false };
  const dm = { chatType: "dm" as const, membersMay: [] };
  const group = { chatType: "group" as const, membersMay: [] };
  const granting = (changes: SessionChange[]) => ({ chatType: "group" as const, membersMay: changes });

  it.each(sessionChangeSchema.options)(
    "%s: admins anywhere, a DM's person, group members only when granted",
    (change) => {
      expect(mayChangeSession(change, admin, group)).toBe(true);
      expect(mayChangeSession(change, admin, dm)).toBe(true);
      expect(mayChangeSession(change, member, dm)).toBe(true);
      expect(mayChangeSession(change, member, group)).toBe(false);
      expect(mayChangeSession(change, member, granting([change]))).toBe(true);
      const others = sessionChangeSchema.options.filter((other) => other !== change);
      expect(mayChangeSession(change, member, granting(others))).toBe(false);
    },
  );
});

describe("who may answer for a run (mayAnswerRun)", () => {
  it.each([
    [{ senderId: "alice", isAdmin: false }, ["alice"], true],
    [{ senderId: "guest", isAdmin: false }, ["alice"], false],
    [{ senderId: "guest", isAdmin: false }, ["alice", "guest"], true],
    [{ senderId: "owner", isAdmin: true }, ["alice"], true],
    // A run nobody's message started (an autonomous goal's turn) is the admins'.
    [{ senderId: "alice", isAdmin: false }, [], false],
    [{ senderId: "owner", isAdmin: true }, [], true],
  ] as const)("%j for a run started by %j → %s", (actor, starters, allowed) => {
    expect(mayAnswerRun(actor, starters)).toBe(allowed);
  });
});
