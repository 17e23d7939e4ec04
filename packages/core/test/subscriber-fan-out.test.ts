import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent } from "../src/index.js";
import { fakeModel, scriptedStreamFn } from "../src/testing/index.js";

function agent(): Agent {
  return new Agent({ model: fakeModel(), streamFn: scriptedStreamFn(() => "hello") });
}

describe("subscribers (seed 000, subscriber lifecycle)", () => {
  it("deliver each event synchronously, in registration order", async () => {
    const a = agent();
    const log: string[] = [];
    a.subscribe((e) => log.push(`1:${e.type}`));
    a.subscribe((e) => log.push(`2:${e.type}`));
    await a.prompt("hi");
    expect(log.slice(0, 4)).toEqual(["1:agent_start", "2:agent_start", "1:turn_start", "2:turn_start"]);
    expect(log.at(-1)).toBe("2:agent_end");
  });

  it("remove a subscriber that throws while the others still get that event and later ones", async () => {
    const warnings: string[] = [];
    const a = new Agent({
      model: fakeModel(),
      streamFn: scriptedStreamFn(() => "hello"),
      logger: { warn: (_obj, msg) => warnings.push(msg ?? "") },
    });
    let thrower = 0;
    const after: AgentEvent["type"][] = [];
    a.subscribe(() => {
      thrower++;
      throw new Error("bad listener");
    });
    a.subscribe((e) => after.push(e.type));
    const result = await a.prompt("hi");
    expect(result.reason).toBe("completed");
    expect(thrower).toBe(1);
    expect(after[0]).toBe("agent_start");
    expect(after.at(-1)).toBe("agent_end");
    expect(warnings).toEqual(["an Agent subscriber threw and was unsubscribed"]);
  });

  it("give a subscriber added mid-run the events from then on only", async () => {
    const a = agent();
    const late: AgentEvent["type"][] = [];
    a.subscribe((e) => {
      if (e.type === "message_end") a.subscribe((ev) => late.push(ev.type));
    });
    await a.prompt("hi");
    expect(late[0]).not.toBe("agent_start");
    expect(late).not.toContain("turn_start");
    expect(late.at(-1)).toBe("agent_end");
  });

  it("apply an unsubscribe made inside a callback after that dispatch", async () => {
    const a = agent();
    const second: AgentEvent["type"][] = [];
    let unsubscribeSecond = (): void => {};
    a.subscribe((e) => {
      if (e.type === "turn_start") unsubscribeSecond();
    });
    unsubscribeSecond = a.subscribe((e) => second.push(e.type));
    await a.prompt("hi");
    expect(second).toEqual(["agent_start", "turn_start"]);
  });
});
