import { RESTORED_TODOS_HEADING } from "@chorus/core";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { contextExtension, contextSettingsSchema } from "../../src/index.js";
import { SUMMARY, todoScript } from "./todo-script.js";

const long = "x ".repeat(12_000);
const on = { main: contextSettingsSchema.parse({ todos: { enabled: true } }) };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A chat that writes the todo list, grows long enough to compact, runs /compact: the next request's first message. */
async function afterCompact(...first: string[]): Promise<string> {
  h = await startHarness({ script: todoScript, gateway: { extensions: [contextExtension({ agents: on })] } });
  for (const text of [...first, long, long, "short", "/compact"]) await h.send({ text });
  await h.send({ text: "where were we?" });
  return JSON.stringify(h.streamFn.calls.at(-1)?.context.messages[0]);
}

describe("a compaction brings back the todo list's open items", () => {
  it("after /compact the summary is followed by the pending and in-progress items, not the completed one", async () => {
    const first = await afterCompact("make a plan");
    expect(first).toContain(SUMMARY);
    expect(first).toContain(RESTORED_TODOS_HEADING);
    expect(first).toContain("- OPEN-A read the parser (in progress)\\n- OPEN-B write the tests");
    expect(first).not.toContain("DONE-C");
  });

  it("brings back the list as it was last written", async () => {
    const first = await afterCompact("make a plan", "progress");
    expect(first).toContain(`${RESTORED_TODOS_HEADING}\\n- OPEN-B write the tests (in progress)`);
    expect(first).not.toContain("OPEN-A");
  });

  it("a session that never wrote a list gets no todo section", async () => {
    const first = await afterCompact();
    expect(first).toContain(SUMMARY);
    expect(first).not.toContain(RESTORED_TODOS_HEADING);
  });
});
