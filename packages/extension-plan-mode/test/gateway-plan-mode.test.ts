import type { StreamContext } from "@chorus/core";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { planModeExtension } from "../src/plan-mode-extension.js";
import { execProbe } from "./fixtures/exec-probe.js";

const config = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", admins: ["owner"] }],
};
const owner = { chatType: "dm" as const, chatId: "owner", sender: { id: "owner", name: "Owner" } };

/** The scripted model: tries to act, proposes a plan when plan mode refuses, acts once the plan is approved. */
function planner(seen: string[]) {
  let plans = 0;
  return (context: StreamContext) => {
    const last = context.messages.at(-1) as { role: string; content: unknown };
    const said = JSON.stringify(last.content);
    seen.push(said);
    if (last.role !== "toolResult") return { toolCalls: [{ name: "exec", args: { command: "make refactor" } }] };
    if (said.includes("Plan mode:") || said.includes("rejected")) {
      plans++;
      return { toolCalls: [{ name: "propose_plan", args: { plan: `${plans}. run make refactor` } }] };
    }
    if (said.includes("approved the plan"))
      return { toolCalls: [{ name: "exec", args: { command: "make refactor" } }] };
    return "done";
  };
}

describe("plan mode through the gateway (seed 003 step 12)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function start(buttons: boolean, planMode = true) {
    const probe = execProbe();
    const seen: string[] = [];
    h = await startHarness({
      config,
      script: planner(seen),
      channel: { capabilities: { buttons } },
      gateway: {
        agents: { main: { tools: [probe.tool] } },
        extensions: [planModeExtension({ agents: planMode ? ["main"] : [] })],
      },
    });
    return { h, probe, seen };
  }

  function plansWithButtons(harness: Harness) {
    return harness.channel.succeeded("send").filter((call) => (call.outbound.buttons ?? []).length > 0);
  }

  it("only reads until the plan is approved; Reject keeps plan mode with feedback; Approve leaves it", async () => {
    const { h, probe, seen } = await start(true);
    await h.send({ ...owner, text: "/plan" });
    expect(h.channel.transcript("owner").at(-1)).toContain("Plan mode is on");

    await h.channel.inject({ ...owner, text: "refactor the parser" });
    await vi.waitFor(() => expect(plansWithButtons(h)).toHaveLength(1), { timeout: 5_000 });
    expect(probe.commands).toEqual([]);
    expect(seen.some((text) => text.includes("only information (read-only) tools"))).toBe(true);
    const first = plansWithButtons(h)[0]!.outbound;
    expect(first.text).toContain("1. run make refactor");
    expect(first.buttons?.map((b) => b.label)).toEqual(["Approve", "Reject"]);
    expect(first.text).not.toContain("send `/plan approve`");

    await h.channel.inject({ ...owner, text: "/plan reject do it on a branch" });
    await vi.waitFor(() => expect(plansWithButtons(h)).toHaveLength(2), { timeout: 5_000 });
    expect(probe.commands).toEqual([]);
    expect(seen.some((text) => text.includes("rejected the plan: do it on a branch"))).toBe(true);

    const approve = plansWithButtons(h)[1]!.outbound.buttons?.[0]?.id ?? "";
    await h.send({ ...owner, text: approve });
    await h.gateway.idle();
    expect(probe.commands).toEqual(["make refactor"]);
    expect(h.channel.transcript("owner").at(-1)).toBe("done");

    // Plan mode is over: the next request acts at once.
    await h.send({ ...owner, text: "again" });
    expect(probe.commands).toEqual(["make refactor", "make refactor"]);
  });

  it("without buttons the plan says how to answer, and a typed /plan approve works", async () => {
    const { h, probe } = await start(false);
    await h.send({ ...owner, text: "/plan" });
    await h.channel.inject({ ...owner, text: "refactor the parser" });
    await vi.waitFor(
      () => expect(h.channel.transcript("owner").some((text) => text.includes("Proposed plan"))).toBe(true),
      { timeout: 5_000 },
    );
    const plan = h.channel.transcript("owner").find((text) => text.includes("Proposed plan")) ?? "";
    expect(plan).toContain("To approve it, send `/plan approve`.");
    expect(plan).toContain("To reject it, send `/plan reject <what to change>`");
    expect(h.channel.succeeded("send").every((call) => (call.outbound.buttons ?? []).length === 0)).toBe(true);
    await h.send({ ...owner, text: "/plan approve" });
    await h.gateway.idle();
    expect(probe.commands).toEqual(["make refactor"]);
  });

  it("an agent without plan mode says so, and /plan approve with nothing waiting changes nothing", async () => {
    const { h } = await start(true, false);
    await h.send({ ...owner, text: "/plan" });
    expect(h.channel.transcript("owner").at(-1)).toContain("not enabled");
    await h.close();
    const again = await start(true);
    await again.h.send({ ...owner, text: "/plan approve" });
    expect(again.h.channel.transcript("owner").at(-1)).toContain("No plan is waiting");
  });
});
