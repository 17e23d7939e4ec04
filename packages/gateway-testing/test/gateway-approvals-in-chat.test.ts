import type { TestChannelOptions } from "@chorus/gateway";
import { createApprovalPolicy } from "@chorus/tools";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deployProbe, type Harness, NOT_YOURS_TO_ANSWER, startHarness, tryDeploy } from "../src/index.js";

const TIMEOUT_MS = 60_000;

async function start(channel: TestChannelOptions["capabilities"] = { buttons: false }, editWindowMs?: number) {
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
    channel: { capabilities: channel, ...(editWindowMs === undefined ? {} : { editWindowMs }) },
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
    // The request itself now says how it ended instead of how to answer.
    expect(requestIn(h.channel.transcript("group-1"))).toBe(
      [
        '**Approval needed**: the agent wants to run `deploy` with `{"target":"prod"}`.',
        'Why: Allow deploy with {"target":"prod"}?',
        "**Approved** by User One.",
      ].join("\n"),
    );

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
    expect(requestIn(h.channel.transcript("dm-user-1"))).toMatch(/\n\*\*Denied\*\* by User One\.$/);
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
    expect(requestIn(chat)).toMatch(/\n\*\*Denied\*\*: nobody answered within 60 s\.$/);
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
    // The request lost its buttons: its last edit carries none, so a second press cannot be made.
    const settled = h.channel.succeeded("edit").filter((call) => call.messageId === sent.messageId);
    expect(settled).toHaveLength(1);
    expect(settled[0]!.outbound.text).toMatch(/\n\*\*Approved\*\* by User One\.$/);
    expect(settled[0]!.outbound.buttons).toBeUndefined();
  });

  it("leaves a request too old to edit as it is, rather than posting it again settled", async () => {
    vi.useFakeTimers();
    const started = await start({ buttons: true }, 10_000);
    h = started.h;
    await h.channel.inject({ text: "ship it", sender: { id: "user-1" } });
    await settle();
    await vi.advanceTimersByTimeAsync(11_000);
    await h.channel.inject({ text: `/approve ${buttonCodeIn(h)}`, sender: { id: "user-1" } });
    await settle();
    await h.gateway.idle();
    const chat = h.channel.transcript("dm-user-1");
    expect(chat.filter((text) => text.startsWith("**Approval needed**"))).toHaveLength(1);
    expect(requestIn(chat)).toContain("Use the buttons below");
    expect(chat.slice(-2)).toEqual(["Approved: running `deploy`.", "result: deployed prod"]);
  });

  it("withdraws the request when its run is stopped before anyone answers", async () => {
    vi.useFakeTimers();
    const started = await start({ buttons: true });
    h = started.h;
    await h.channel.inject({ text: "ship it", sender: { id: "user-1" } });
    await settle();
    const code = buttonCodeIn(h);
    await h.channel.inject({ text: "/stop", sender: { id: "user-1" } });
    await settle();
    await h.gateway.idle();
    expect(requestIn(h.channel.transcript("dm-user-1"))).toMatch(
      /\n\*\*Withdrawn\*\*: the run stopped before anyone answered\.$/,
    );
    expect(h.gateway.approvals.size).toBe(0);
    expect(started.probe.deployed).toEqual([]);
    await h.channel.inject({ text: `/approve ${code}`, sender: { id: "user-1" } });
    await settle();
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe(`No request is waiting under \`${code}\`.`);
  });
});

/** The approval request among a chat's messages. */
function requestIn(chat: readonly string[]): string | undefined {
  return chat.find((text) => text.startsWith("**Approval needed**"));
}

/** The code behind the Approve button of the latest message sent with buttons. */
function buttonCodeIn(h: Harness): string {
  const withButtons = h.channel.succeeded("send").filter((call) => (call.outbound.buttons ?? []).length > 0);
  return withButtons.at(-1)?.outbound.buttons?.[0]?.id.replace("/approve ", "") ?? "";
}
