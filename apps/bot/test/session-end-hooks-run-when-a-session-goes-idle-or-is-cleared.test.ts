import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GatewayLogger } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { agentSetupsOf } from "../src/runtime/agent-setup.js";
import { agentWorkspacesOf, prepareAgentWorkspaces } from "../src/runtime/agent-workspaces.js";
import { assertHooksOutsideWorkspaces, MisplacedHookError } from "../src/runtime/hook-placement.js";
import { sessionEndHooksExtension } from "../src/runtime/session-end-hooks.js";

// Issue #35 requirement 5 (seed 003 "Session end"): `agents[].hooks.session_end` in chorus.config.yaml runs when the
// gateway lets a session go after its idle time, and on /new, with the event as JSON on stdin.

const CHAT = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: ["owner"], groupPolicy: "open" as const }],
};

let dir: string;
let h: Harness | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-session-end-"));
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  await rm(dir, { recursive: true, force: true });
});

function recordingLogger() {
  const warnings: { fields: Record<string, unknown>; message?: string | undefined }[] = [];
  const logger: GatewayLogger = {
    info: () => {},
    warn: (fields, message) => void warnings.push({ fields: fields as Record<string, unknown>, message }),
    error: () => {},
  };
  return { logger, warnings };
}

/** A gateway whose agent "main" has these `session_end` hooks, built as `chorus start` builds them from the config. */
async function gatewayWithHooks(
  sessionEnd: { command: string; timeoutMs?: number }[],
  options: { idleEvictMs?: number; logger?: GatewayLogger } = {},
) {
  const parsed = parseBotConfig({
    dataDir: "./data",
    agents: [{ id: "main", model: "demo", hooks: { session_end: sessionEnd } }],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const workspaces = await agentWorkspacesOf(parsed.config, dir);
  await prepareAgentWorkspaces(workspaces);
  const setups = agentSetupsOf(parsed.config, workspaces);
  h = await startHarness({
    config: CHAT,
    script: (context) => `heard ${context.messages.length}`,
    gateway: {
      extensions: [sessionEndHooksExtension({ main: setups.main?.hooks })],
      idleEvictMs: options.idleEvictMs ?? 60_000,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    },
  });
  return h;
}

async function linesOf(file: string): Promise<unknown[]> {
  const text = await readFile(join(dir, file), "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}

describe("session_end hooks from the config", () => {
  it("a session let go after its idle time runs the hook, in the config's folder, with the event on stdin", async () => {
    const gateway = await gatewayWithHooks([{ command: "cat >> session-end.jsonl" }], { idleEvictMs: 30 });
    await gateway.send({ chatType: "dm", text: "hello", sender: { id: "alice" } });
    await vi.waitFor(async () => expect(await linesOf("session-end.jsonl")).toHaveLength(1), { timeout: 10_000 });
    expect(await linesOf("session-end.jsonl")).toEqual([
      { event: "session_end", sessionId: "main:main:test:dm:alice", agent: "main", reason: "idle" },
    ]);
  });

  it("/new runs the hook with reason cleared, and the conversation starts afresh", async () => {
    const gateway = await gatewayWithHooks([{ command: "cat >> session-end.jsonl" }]);
    await gateway.send({ chatType: "dm", text: "remember 42", sender: { id: "alice" } });
    await gateway.send({ chatType: "dm", text: "/new", sender: { id: "alice" } });
    await gateway.gateway.idle();
    const [event] = (await linesOf("session-end.jsonl")) as { reason: string; sessionId: string }[];
    expect(event).toMatchObject({ event: "session_end", agent: "main", reason: "cleared" });
    await gateway.send({ chatType: "dm", text: "what did I say?", sender: { id: "alice" } });
    expect(gateway.channel.transcript("dm-alice")).toEqual(["heard 1", "Started a new conversation.", "heard 1"]);
  });

  it("a failing hook and a slow one are logged, and /new is answered at once with nothing else changed", async () => {
    const { logger, warnings } = recordingLogger();
    const gateway = await gatewayWithHooks(
      [
        { command: "echo 'audit store is down' >&2; exit 3" },
        { command: "sleep 5", timeoutMs: 2000 },
        { command: "cat >> session-end.jsonl" },
      ],
      { logger },
    );
    await gateway.send({ chatType: "dm", text: "hello", sender: { id: "alice" } });
    const asked = Date.now();
    await gateway.channel.inject({ chatType: "dm", text: "/new", sender: { id: "alice" } });
    await vi.waitFor(() => expect(gateway.channel.transcript("dm-alice").at(-1)).toBe("Started a new conversation."));
    expect(Date.now() - asked).toBeLessThan(1500);
    await gateway.gateway.idle();
    const failures = warnings.filter((line) => line.fields.hookEvent === "session_end");
    expect(failures.map((line) => line.fields.err)).toEqual([
      "audit store is down",
      "hook timed out after 2000 ms: sleep 5",
    ]);
    expect(failures[0]?.fields).toMatchObject({ agentId: "main", reason: "cleared" });
    // The hooks after a failing one still ran.
    expect(await linesOf("session-end.jsonl")).toHaveLength(1);
    await gateway.send({ chatType: "dm", text: "still here?", sender: { id: "alice" } });
    expect(gateway.channel.transcript("dm-alice").at(-1)).toBe("heard 1");
  });

  it("no chat user can set one: a session_end script the agents' file tools could write is refused at start", async () => {
    const parsed = parseBotConfig({
      dataDir: "./data",
      agents: [{ id: "main", model: "demo", hooks: { session_end: [{ command: "./data/workspaces/main/end.sh" }] } }],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const workspaces = await agentWorkspacesOf(parsed.config, dir);
    await prepareAgentWorkspaces(workspaces);
    await mkdir(join(dir, "data", "workspaces", "main"), { recursive: true });
    await writeFile(join(dir, "data", "workspaces", "main", "end.sh"), "#!/bin/sh\n");
    expect(() => assertHooksOutsideWorkspaces(parsed.config, workspaces)).toThrow(MisplacedHookError);
    expect(() => assertHooksOutsideWorkspaces(parsed.config, workspaces)).toThrow(/hooks\.session_end\[0\]/);
  });
});
