import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  childSessionKey,
  formatSessionKey,
  isSubagentKey,
  lineageOf,
  parseSessionKey,
  type RootSessionKey,
  rootKeyOf,
  type SessionKey,
  subagentDepth,
} from "../src/index.js";

const keyId = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,63}$/);
// Platform ids: anything well-formed, including ":", "%", unicode and mixed case.
const platformId = fc.oneof(
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
  fc.string({ unit: fc.constantFrom(":", "%", "A", "a", "/", " ", "é", "🙂", "2", "F"), minLength: 1, maxLength: 12 }),
);

const rootKey: fc.Arbitrary<RootSessionKey> = fc.oneof(
  fc.record({ kind: fc.constant("dm" as const), agentId: keyId, accountId: keyId, channel: keyId, peerId: platformId }),
  fc.record(
    {
      kind: fc.constant("group" as const),
      agentId: keyId,
      accountId: keyId,
      channel: keyId,
      groupId: platformId,
      threadId: platformId,
    },
    { requiredKeys: ["kind", "agentId", "accountId", "channel", "groupId"] },
  ),
);

describe("session keys round-trip", () => {
  it("any DM or group key parses back to exactly the parts it was built from", () => {
    fc.assert(
      fc.property(rootKey, (key) => {
        const text = formatSessionKey(key);
        const parsed = parseSessionKey(text);
        expect(parsed).toEqual({ ok: true, key });
        expect(formatSessionKey(parsed.ok ? parsed.key : key)).toBe(text);
      }),
    );
  });

  it("sub-agent keys nest: depth and lineage are preserved and rootKeyOf finds the root", () => {
    fc.assert(
      fc.property(rootKey, fc.array(fc.tuple(keyId, platformId), { minLength: 1, maxLength: 6 }), (root, children) => {
        let key = formatSessionKey(root);
        const chain = [key];
        for (const [agentId, childId] of children) {
          key = childSessionKey(key, agentId, childId);
          chain.push(key);
        }
        expect(isSubagentKey(key)).toBe(true);
        expect(subagentDepth(key)).toBe(children.length);
        expect(rootKeyOf(key)).toBe(formatSessionKey(root));
        expect(lineageOf(key).map(formatSessionKey)).toEqual(chain.slice(0, -1).reverse());
        const parsed = parseSessionKey(key);
        if (!parsed.ok) throw parsed.error;
        const last = children.at(-1)!;
        expect(parsed.key).toMatchObject({ kind: "subagent", agentId: last[0], childId: last[1] });
      }),
    );
  });

  it("keeps ids that differ only in case apart (no lower-casing)", () => {
    const a = formatSessionKey({ kind: "dm", agentId: "a", accountId: "b", channel: "slack", peerId: "U01ABC" });
    const b = formatSessionKey({ kind: "dm", agentId: "a", accountId: "b", channel: "slack", peerId: "u01abc" });
    expect(a).not.toBe(b);
  });

  it("gives two people's DMs two different sessions", () => {
    const base = { kind: "dm", agentId: "helper", accountId: "main", channel: "discord" } as const;
    expect(formatSessionKey({ ...base, peerId: "111" })).not.toBe(formatSessionKey({ ...base, peerId: "222" }));
  });

  it("writes the documented grammar", () => {
    const group: SessionKey = {
      kind: "group",
      agentId: "helper",
      accountId: "main",
      channel: "telegram",
      groupId: "-100:5",
      threadId: "7",
    };
    expect(formatSessionKey(group)).toBe("helper:main:telegram:group:-100%3A5:thread:7");
    expect(childSessionKey(group, "coder", "run-1")).toBe(
      "agent:coder:sub:1:run-1:helper:main:telegram:group:-100%3A5:thread:7",
    );
  });

  it("treats an agent literally named 'agent' as a root key, not a sub-agent", () => {
    const key = formatSessionKey({ kind: "dm", agentId: "agent", accountId: "x", channel: "sub", peerId: "1" });
    expect(isSubagentKey(key)).toBe(false);
    expect(parseSessionKey(key)).toMatchObject({ ok: true, key: { kind: "dm", agentId: "agent", channel: "sub" } });
  });
});
