import { describe, expect, it } from "vitest";
import {
  formatSessionKey,
  isSubagentKey,
  parseSessionKey,
  rootKeyOf,
  SessionKeyError,
  subagentDepth,
} from "../src/index.js";

function errorOf(key: string): SessionKeyError {
  const result = parseSessionKey(key);
  if (result.ok) throw new Error(`expected ${key} to be rejected`);
  return result.error;
}

describe("malformed session keys are rejected with a reason", () => {
  it.each([
    ["", "empty"],
    ["helper:main:discord:chat:1", "bad-shape"],
    ["helper:main:discord:dm", "bad-shape"],
    ["helper:main:discord:dm:1:2", "bad-shape"],
    ["helper:main:discord:group:1:topic:2", "bad-shape"],
    ["Helper:main:discord:dm:1", "bad-agent-id"],
    ["helper:MAIN:discord:dm:1", "bad-account-id"],
    ["helper:main:Discord:dm:1", "bad-channel"],
    ["helper:main:discord:dm:", "empty-component"],
    ["helper:main:discord:dm:%E0%A4%A", "bad-encoding"],
    ["helper:main:discord:dm:%3a", "non-canonical-encoding"],
    ["helper:main:discord:dm:%41", "non-canonical-encoding"],
    ["agent:coder:sub:0:c:helper:main:discord:dm:1", "bad-depth"],
    ["agent:coder:sub:2:c:helper:main:discord:dm:1", "depth-mismatch"],
    ["agent:coder:sub:1:c:", "bad-shape"],
  ])("%j → %s", (key, code) => {
    const error = errorOf(key);
    expect(error).toBeInstanceOf(SessionKeyError);
    expect(error.code).toBe(code);
    expect(error.message).toContain(JSON.stringify(key));
  });

  it("names the offending part in the message", () => {
    expect(errorOf("helper:MAIN:discord:dm:1").message).toMatch(/account id "MAIN" must match/);
  });

  it("refuses to build keys from invalid parts", () => {
    expect(() => formatSessionKey({ kind: "dm", agentId: "a b", accountId: "x", channel: "c", peerId: "1" })).toThrow(
      SessionKeyError,
    );
    expect(() => formatSessionKey({ kind: "dm", agentId: "a", accountId: "x", channel: "c", peerId: "" })).toThrow(
      /peer id is empty/,
    );
    expect(() =>
      formatSessionKey({ kind: "dm", agentId: "a", accountId: "x", channel: "c", peerId: "\uD800" }),
    ).toThrow(/lone surrogate/);
    const parent = { kind: "dm", agentId: "a", accountId: "x", channel: "c", peerId: "1" } as const;
    expect(() => formatSessionKey({ kind: "subagent", agentId: "a", depth: 3, childId: "c", parent })).toThrow(
      /expected 1/,
    );
  });

  it("lineage helpers reject malformed strings except isSubagentKey, which says false", () => {
    expect(isSubagentKey("nonsense")).toBe(false);
    expect(() => subagentDepth("nonsense")).toThrow(SessionKeyError);
    expect(() => rootKeyOf("nonsense")).toThrow(SessionKeyError);
  });

  it("parses a very deeply nested hostile key without overflowing the stack", () => {
    let key = "a:b:c:dm:1";
    for (let depth = 1; depth <= 20_000; depth++) key = `agent:a:sub:${depth}:x:${key}`;
    expect(subagentDepth(key)).toBe(20_000);
    expect(rootKeyOf(key)).toBe("a:b:c:dm:1");
  });
});
