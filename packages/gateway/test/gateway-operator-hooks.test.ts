import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shellHooksOf } from "@chorus/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execProbe, tryExec } from "./fixtures/exec-probe.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const config = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", admins: ["owner"] }],
};
const owner = { chatType: "dm" as const, chatId: "owner", sender: { id: "owner", name: "Owner" } };

describe("operator hooks through the gateway", () => {
  let h: Harness;
  let workspace: string;
  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), "chorus-hooks-"));
  });
  afterEach(async () => {
    await h.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it("a pre_tool_use hook that exits non-zero blocks the tool, and the chat sees the hook's reason", async () => {
    const probe = execProbe();
    const hooks = shellHooksOf({ pre_tool_use: [{ command: "echo 'exec needs a ticket' >&2; exit 3" }] }, workspace);
    h = await startHarness({
      config,
      script: tryExec,
      gateway: { agents: { main: { tools: [probe.tool], ...(hooks ? { hooks } : {}) } } },
    });
    await h.send({ ...owner, text: "run something" });
    expect(probe.commands).toEqual([]);
    expect(h.channel.transcript("owner").at(-1)).toContain("exec needs a ticket");
  });

  it("a hook that outlives its time limit blocks the tool; a post_tool_use hook logs each call in the workspace", async () => {
    const probe = execProbe();
    const slow = shellHooksOf({ pre_tool_use: [{ command: "sleep 30", timeoutMs: 150 }] }, workspace);
    h = await startHarness({
      config,
      script: tryExec,
      gateway: { agents: { main: { tools: [probe.tool], ...(slow ? { hooks: slow } : {}) } } },
    });
    await h.send({ ...owner, text: "run something" });
    expect(probe.commands).toEqual([]);
    expect(h.channel.transcript("owner").at(-1)).toContain("timed out after 150 ms");
    await h.close();

    const audit = shellHooksOf({ post_tool_use: [{ command: "cat >> audit.jsonl" }] }, workspace);
    h = await startHarness({
      config,
      script: tryExec,
      gateway: { agents: { main: { tools: [probe.tool], ...(audit ? { hooks: audit } : {}) } } },
    });
    await h.send({ ...owner, text: "run something" });
    expect(probe.commands).toEqual(["cat ~/.ssh/id_rsa"]);
    const line = JSON.parse(readFileSync(join(workspace, "audit.jsonl"), "utf8").trim());
    expect(line).toMatchObject({ event: "post_tool_use", toolName: "exec", output: "ran", isError: false });
  });
});
