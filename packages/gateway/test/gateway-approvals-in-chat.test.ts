import { createApprovalPolicy } from "@chorus/tools";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TestChannelOptions } from "../src/channel/index.js";
import { deployProbe, NOT_YOURS_TO_ANSWER, tryDeploy } from "./fixtures/deploy-approval-probe.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const TIMEOUT_MS = 60_000;

async function start(channel: TestChannelOptions["capabilities"] = { buttons: false }) {
  const probe = deployProbe();
  const h = await startHarness({
    config: {
      agents: [{ id: "main", model: "fake-model" }],
      channels: [
        {
          channel: "test",
          dmPolicy: "allowlist",
          allowFrom: ["user-1"],
          admins: ["admin"],
          groups: { "group-1": { requireMention: false, trust: "trusted" } },
        },
      ],
    },
    script: tryDeploy,
    channel: { capabilities: channel },
    gateway: {
      agents: {
        main: {
          tools: [probe.tool],
          tiers: { trusted: { allow: ["*"] } },
          policies: [createApprovalPolicy({ require: ["deploy"], timeoutMs: TIMEOUT_MS })],
        },
      },
    },
  });
  return { h, probe };
}

async function settle(ms = 20): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}

function codeIn(text: string | undefined): string {
  const code = /`\/approve ([a-z0-9]+)`/.exec(text ?? "")?.[1];
  if (code === undefined) throw new Error(`no approval code in ${JSON.stringify(text)}`);
  return code;
}

describe("approval requests in chat", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await vi.runOnlyPendingTimersAsync();
    await h?.close();
    vi.useRealTimers();
  });

  it("says what the agent wants to run and why; only the requester or an admin may answer; approve resumes it", async () => {
    vi.useFakeTimers();
    const started = await start();
    h = started.h;
    await h.channel.inject({ text: "ship it", chatType: "group", chatId: "group-1", sender: { id: "user-1" } });
    await settle();
    const request = h.channel.transcript("group-1").at(-1);
    expect(request).toContain('**Approval needed**: the agent wants to run `deploy` with `{"target":"prod"}`.');
    expect(request).toContain('Why: Allow deploy with {"target":"prod"}?');
    expect(request).toContain("the person who asked or an admin");
    const code = codeIn(request);

    await h.channel.inject({
      text: `/approve ${code}`,
      chatType: "group",
      chatId: "group-1",
      sender: { id: "user-2" },
    });
    await settle();
    expect(h.channel.transcript("group-1").at(-1)).toBe(NOT_YOURS_TO_ANSWER);
    expect(started.probe.deployed).toEqual([]);

    await h.channel.inject({
      text: `/approve ${code}`,
      chatType: "group",
      chatId: "group-1",
      sender: { id: "user-1" },
    });
    await settle();
    await h.gateway.idle();
    expect(started.probe.deployed).toEqual(["prod"]);
    expect(h.channel.transcript("group-1").slice(-2)).toEqual(["Approved: running `deploy`.", "result: deployed prod"]);

    // An answered request cannot be answered again.
    await h.channel.inject({ text: `/deny ${code}`, chatType: "group", chatId: "group-1", sender: { id: "admin" } });
    await settle();
    expect(h.channel.transcript("group-1").at(-1)).toBe(`No request is waiting under \`${code}\`.`);
  });

  it("lets an admin deny from another chat; the call does not run and the model is told", async () => {
    vi.useFakeTimers();
    const started = await start();
    h = started.h;
    await h.channel.inject({ text: "ship it", sender: { id: "user-1" } });
    await settle();
    const code = codeIn(h.channel.transcript("dm-user-1").at(-1));
    await h.channel.inject({ text: `/deny ${code}`, sender: { id: "admin" } });
    await settle();
    await h.gateway.idle();
    expect(h.channel.transcript("dm-admin")).toEqual(["Denied: `deploy` will not run."]);
    expect(started.probe.deployed).toEqual([]);
    const answer = h.channel.transcript("dm-user-1").at(-1)!;
    expect(answer).toMatch(/^result: /);
    expect(answer).toContain("denied by");
  });

  it("tells the chat when nobody answered in time, and the call is denied", async () => {
    vi.useFakeTimers();
    const started = await start();
    h = started.h;
    await h.channel.inject({ text: "ship it", sender: { id: "user-1" } });
    await settle();
    const code = codeIn(h.channel.transcript("dm-user-1").at(-1));
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS + 100);
    await h.gateway.idle();
    const chat = h.channel.transcript("dm-user-1");
    expect(chat).toContain(
      `Nobody answered the request to run \`deploy\` (\`${code}\`) within 60 s, so it was denied.`,
    );
    expect(chat.at(-1)).toMatch(/^result: .*no approval within 60 s/);
    expect(started.probe.deployed).toEqual([]);
    expect(h.gateway.approvals.size).toBe(0);
  });

  it("puts Approve and Deny buttons under the request where the channel has buttons; a press answers it", async () => {
    vi.useFakeTimers();
    const started = await start({ buttons: true });
    h = started.h;
    await h.channel.inject({ text: "ship it", sender: { id: "user-1" } });
    await settle();
    const sent = h.channel.succeeded("send").at(-1)!;
    expect(sent.outbound.text).toContain("Use the buttons below");
    const buttons = sent.outbound.buttons ?? [];
    expect(buttons.map((button) => button.label)).toEqual(["Approve", "Deny"]);
    // A press arrives as a message whose text is the button's id.
    await h.channel.inject({ text: buttons[0]!.id, sender: { id: "user-1" } });
    await settle();
    await h.gateway.idle();
    expect(started.probe.deployed).toEqual(["prod"]);
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("result: deployed prod");
  });
});
