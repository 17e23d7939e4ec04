import { describe, expect, it } from "vitest";
import { createApprovalPolicy } from "../src/policy/approval-policy.js";
import { createToolPolicyGate } from "../src/policy/policy-gate.js";
import { evaluateToolPolicy } from "../src/policy/tool-policy.js";
import { dispatchRequest } from "./support/dispatch-request.js";

const ALL = [
  "read_file",
  "list_dir",
  "glob",
  "grep",
  "write_file",
  "edit_file",
  "exec",
  "web_fetch",
  "current_time",
  "spawn_agent",
  "mcp__files__delete",
  "gateway_restart",
];

async function allowedFor(tier: string): Promise<string[]> {
  const gate = createToolPolicyGate({ groups: { admin: ["gateway_restart"] } });
  const allowed: string[] = [];
  for (const name of ALL) {
    const decision = await gate(dispatchRequest(name, { trustTier: tier }));
    if (decision?.kind === "allow") allowed.push(name);
  }
  return allowed;
}

describe("tool policy", () => {
  it("deny wins over allow; entries match names, groups and *", () => {
    expect(evaluateToolPolicy({ allow: ["*"], deny: ["group:exec"] }, "exec")).toEqual({
      allowed: false,
      reason: 'Tool "exec" is not permitted here (denied by group:exec).',
    });
    expect(evaluateToolPolicy({ allow: ["group:fs-read", "web_fetch"] }, "web_fetch").allowed).toBe(true);
    expect(evaluateToolPolicy({ allow: ["group:fs-read"] }, "write_file")).toEqual({
      allowed: false,
      reason: 'Tool "write_file" is not permitted here (not in the allowed tools).',
    });
    expect(evaluateToolPolicy({ deny: ["group:mcp"] }, "mcp__x__y").allowed).toBe(false);
    expect(evaluateToolPolicy({}, "anything").allowed).toBe(true);
  });

  it("owner may use everything", async () => {
    expect(await allowedFor("owner")).toEqual(ALL);
  });

  it("trusted may read and use the web, nothing else", async () => {
    expect(await allowedFor("trusted")).toEqual(["read_file", "list_dir", "glob", "grep", "web_fetch", "current_time"]);
  });

  it("guest gets harmless facts only, no file reads; unknown or missing tiers are treated as guest", async () => {
    const guest = ["current_time"];
    expect(await allowedFor("guest")).toEqual(guest);
    expect(await allowedFor("root")).toEqual(guest);
    const gate = createToolPolicyGate();
    expect(await gate(dispatchRequest("exec"))).toEqual({
      kind: "deny",
      reason: 'Tool "exec" is not available to a guest user.',
    });
    expect(await gate(dispatchRequest("read_file", { trustTier: "guest" }))).toEqual({
      kind: "deny",
      reason: 'Tool "read_file" is not available to a guest user.',
    });
  });

  it("a fixed policy applies on top of the tier, and tiers can be overridden or switched off", async () => {
    const gate = createToolPolicyGate({ policy: { deny: ["web_fetch"] }, tiers: { trusted: { allow: ["*"] } } });
    expect((await gate(dispatchRequest("exec", { trustTier: "trusted" })))?.kind).toBe("allow");
    expect(await gate(dispatchRequest("web_fetch", { trustTier: "owner" }))).toEqual({
      kind: "deny",
      reason: 'Tool "web_fetch" is not permitted here (denied by web_fetch).',
    });
    const noTiers = createToolPolicyGate({ tierOf: false, policy: { allow: ["group:exec"] } });
    expect((await noTiers(dispatchRequest("exec")))?.kind).toBe("allow");
  });
});

describe("approval policy", () => {
  it("asks for writes and exec by default and allows the rest", async () => {
    const policy = createApprovalPolicy({ timeoutMs: 5000 });
    expect(await policy(dispatchRequest("exec", {}, { command: "rm -rf build" }))).toEqual({
      kind: "ask",
      reason: 'Allow exec with {"command":"rm -rf build"}?',
      timeoutMs: 5000,
    });
    expect((await policy(dispatchRequest("write_file")))?.kind).toBe("ask");
    expect((await policy(dispatchRequest("read_file")))?.kind).toBe("allow");
  });

  it("takes a predicate and a custom question", async () => {
    const policy = createApprovalPolicy({
      require: (r) => r.run.meta?.channel === "discord",
      reason: (r) => `ok to run ${r.toolCall.name}?`,
    });
    expect(await policy(dispatchRequest("read_file", { channel: "discord" }))).toEqual({
      kind: "ask",
      reason: "ok to run read_file?",
    });
    expect((await policy(dispatchRequest("exec", { channel: "cli" })))?.kind).toBe("allow");
  });
});
