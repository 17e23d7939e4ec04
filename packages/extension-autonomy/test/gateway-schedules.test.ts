import type { ScriptedTurn } from "@chorus/core/testing";
import type { GatewayConfigInput } from "@chorus/gateway";
import { MemorySessionStore, type SessionStore } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { contentText } from "./fixtures/goal-script.js";

const ADMIN = { id: "admin", name: "Admin" };
const CHAT = "dm-admin";
const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"] }],
};
const HOUR = 3_600_000;

/** A clock the test moves by hand. */
function fakeClock(start: string) {
  const clock = { at: Date.parse(start), now: () => clock.at };
  return clock;
}

function echo(context: { messages: readonly unknown[] }): ScriptedTurn {
  const last = context.messages.at(-1) as { content: unknown };
  return `echo: ${contentText(last.content)}`;
}

describe("schedules through the gateway", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function start(clock: { now: () => number }, store?: SessionStore, script = echo) {
    h = await startHarness({
      script,
      config: CONFIG,
      ...(store === undefined ? {} : { store }),
      autonomy: { scheduleTickMs: 24 * HOUR },
      gateway: { now: clock.now },
    });
    return h;
  }

  it("fires a cron schedule in its time zone when the clock reaches it, once", async () => {
    const clock = fakeClock("2026-11-25T07:59:00Z");
    const g = await start(clock);
    await g.send({ text: "/schedule cron 0 9 * * * --tz Europe/Berlin daily report", sender: ADMIN });
    expect(g.channel.transcript(CHAT).at(-1)).toMatch(
      /^⏰ Schedule s-[0-9a-f]{8} created: cron `0 9 \* \* \*` \(Europe\/Berlin\) → `main:main:test:dm:admin`\. Next run 2026-11-25T08:00:00\.000Z\./,
    );
    expect(await g.autonomy.runDueSchedules()).toBe(0);
    clock.at = Date.parse("2026-11-25T08:00:00Z");
    expect(await g.autonomy.runDueSchedules()).toBe(1);
    await g.gateway.idle();
    expect(await g.autonomy.runDueSchedules()).toBe(0);
    expect(g.streamFn.calls).toHaveLength(1);
    const chat = g.channel.transcript(CHAT);
    expect(chat).toContainEqual(expect.stringMatching(/^⏰ Schedule s-[0-9a-f]{8}: daily report$/));
    expect(chat.at(-1)).toBe("echo: daily report");
    const [stored] = await g.store.listSchedules();
    expect(stored).toMatchObject({ status: "active", nextRunAt: Date.parse("2026-11-26T08:00:00Z") });
    expect(stored?.data).toMatchObject({ runs: 1, lastResult: "ok" });
    await g.send({ text: "/agents", sender: ADMIN });
    const agents = g.channel.transcript(CHAT).at(-1) ?? "";
    expect(agents).toContain("**Schedules**");
    expect(agents).toMatch(/- s-[0-9a-f]{8} · active · cron .* · next 2026-11-26T08:00:00\.000Z · last: ok · runs 1/);
  });

  it("runs an interval schedule into a new conversation each time", async () => {
    const clock = fakeClock("2026-11-25T10:00:00Z");
    const g = await start(clock);
    await g.send({ text: "hello", sender: ADMIN });
    await g.send({ text: "/schedule every 1h --new status please", sender: ADMIN });
    clock.at += HOUR;
    expect(await g.autonomy.runDueSchedules()).toBe(1);
    await g.gateway.idle();
    // The scheduled turn saw only its own prompt: the earlier conversation was set aside, as /new does.
    expect(
      g.streamFn.calls.at(-1)?.context.messages.map((m) => contentText((m as { content: unknown }).content)),
    ).toEqual(["status please"]);
  });

  it("reports runs missed while the gateway was down once, without running them", async () => {
    const store = new MemorySessionStore();
    const clock = fakeClock("2026-11-25T10:00:00Z");
    let g = await start(clock, store);
    await g.send({ text: "/schedule every 1h hourly check", sender: ADMIN });
    await g.close();
    h = undefined;
    clock.at += 3.5 * HOUR;
    g = await start(clock, store);
    await g.gateway.idle();
    expect(await g.autonomy.runDueSchedules()).toBe(0);
    const missed = g.channel.transcript(CHAT).filter((text) => text.includes("missed"));
    expect(missed).toHaveLength(1);
    expect(missed[0]).toMatch(
      /^⏰ Schedule s-[0-9a-f]{8} \(every 1h\) missed 3 run\(s\) while the gateway was down, from 2026-11-25T11:00:00\.000Z; they were not run\. Next run 2026-11-25T14:00:00\.000Z\.$/,
    );
    expect(g.streamFn.calls).toHaveLength(0);
    await g.close();
    h = undefined;
    // A second restart before the next run has nothing more to report.
    g = await start(clock, store);
    await g.gateway.idle();
    expect(g.channel.transcript(CHAT).filter((text) => text.includes("missed"))).toHaveLength(0);
    clock.at = Date.parse("2026-11-25T14:00:00Z");
    expect(await g.autonomy.runDueSchedules()).toBe(1);
  });

  it("reports a one-off missed while down and ends it", async () => {
    const store = new MemorySessionStore();
    const clock = fakeClock("2026-11-25T10:00:00Z");
    let g = await start(clock, store);
    await g.send({ text: "/schedule at 2026-11-25T12:00 --tz Europe/Berlin lunch reminder", sender: ADMIN });
    expect(g.channel.transcript(CHAT).at(-1)).toContain("Next run 2026-11-25T11:00:00.000Z");
    await g.close();
    h = undefined;
    clock.at = Date.parse("2026-11-25T13:00:00Z");
    g = await start(clock, store);
    await g.gateway.idle();
    expect(g.channel.transcript(CHAT).at(-1)).toMatch(
      /^⏰ Schedule s-[0-9a-f]{8} \(once at 2026-11-25T11:00:00\.000Z\) missed 1 run\(s\) while the gateway was down, .* It has ended\.$/,
    );
    const [stored] = await g.store.listSchedules();
    expect(stored?.status).toBe("done");
    expect(g.streamFn.calls).toHaveLength(0);
  });

  it("tells the owner in chat when a scheduled run fails", async () => {
    const clock = fakeClock("2026-11-25T10:00:00Z");
    const failing = (): ScriptedTurn => ({
      fault: "error",
      error: { kind: "invalid_request", message: "model said no" },
    });
    const g = await start(clock, undefined, failing);
    await g.send({ text: "/schedule in 30m write the summary", sender: ADMIN });
    clock.at += 30 * 60_000;
    expect(await g.autonomy.runDueSchedules()).toBe(1);
    await g.gateway.idle();
    expect(g.channel.transcript(CHAT).at(-1)).toMatch(
      /^⚠️ Schedule s-[0-9a-f]{8} \(once at 2026-11-25T10:30:00\.000Z\) failed: .*model said no/,
    );
    const [stored] = await g.store.listSchedules();
    expect(stored?.status).toBe("done");
    expect(stored?.data.lastResult).toMatch(/^failed: .*model said no/);
  });

  it("refuses bad input with a clear message and stores nothing", async () => {
    const clock = fakeClock("2026-11-25T10:00:00Z");
    const g = await start(clock);
    const cases: [string, RegExp][] = [
      ["/schedule cron 61 * * * * x", /^Malformed cron expression `61 \* \* \* \*`: .*minute/],
      ["/schedule cron 0 9 * * * --tz Mars/Base x", /^Unknown time zone "Mars\/Base"/],
      ["/schedule cron 0 9 * x", /^A cron expression has five fields/],
      ["/schedule every 0m x", /^The shortest interval is one minute/],
      ["/schedule every often x", /^"often" is not a duration/],
      ["/schedule at 2026-11-24T10:00 x", /is in the past\.$/],
      ["/schedule at tomorrow x", /^"tomorrow" is not a time/],
      ["/schedule in 1h", /^What should I send when it runs\?/],
      ["/schedule in 1h --session main:main:test:dm:nobody x", /^No session "main:main:test:dm:nobody"/],
    ];
    for (const [command, answer] of cases) {
      await g.send({ text: command, sender: ADMIN });
      expect(g.channel.transcript(CHAT).at(-1)).toMatch(answer);
    }
    await g.send({ text: "/schedule in 1h sneaky", sender: { id: "user-1" } });
    expect(g.channel.transcript("dm-user-1").at(-1)).toMatch(/not authori[sz]ed/i);
    expect(await g.store.listSchedules()).toEqual([]);
  });

  it("an admin stops a schedule with a command, and it runs no more", async () => {
    const clock = fakeClock("2026-11-25T10:00:00Z");
    const g = await start(clock);
    await g.send({ text: "/schedule every 1h ping", sender: ADMIN });
    const [created] = await g.store.listSchedules();
    await g.send({ text: `/schedule stop ${created?.id}`, sender: ADMIN });
    expect(g.channel.transcript(CHAT).at(-1)).toBe(`⏹ Schedule ${created?.id} stopped.`);
    clock.at += 2 * HOUR;
    expect(await g.autonomy.runDueSchedules()).toBe(0);
    await g.send({ text: "/schedule list", sender: ADMIN });
    expect(g.channel.transcript(CHAT).at(-1)).toContain(`- ${created?.id} · stopped · every 1h`);
  });
});
