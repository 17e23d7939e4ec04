import { FOCUS_KNOWLEDGE_PREFIX, type StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { contextExtension, contextSettingsSchema, FOCUS_SETTING } from "../../src/index.js";
import { textOf } from "./focus-script.js";

const NOTES: Record<string, string> = {
  one: "The database migrations live in db/migrations and run with pnpm migrate.",
  two: "Logs are written by pino to stdout as JSON lines.",
  three: "The database migrations live in db/migrations and run with pnpm migrate.\nSeeds are in db/seeds.",
};

/**
 * "note <name>" opens and completes a focus in one step with that note; anything else is answered "ok" — also the
 * knowledge message the completed focus leaves last in the request (it names the note in its scope).
 */
function script(context: StreamContext): ScriptedTurn {
  const last = context.messages.at(-1);
  const text = textOf(last);
  const name = text.startsWith(FOCUS_KNOWLEDGE_PREFIX) ? undefined : /note (\w+)/.exec(text)?.[1];
  if ((last as { role?: string }).role !== "user" || name === undefined) return "ok";
  return {
    toolCalls: [
      { name: "start_focus", args: { scope: `note ${name}` } },
      { name: "complete_focus", args: { knowledge: NOTES[name] } },
    ],
  };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("auto-consolidation through the gateway", () => {
  it("merges similar notes after autoConsolidateMinWindow turns, keeps the dissimilar one, and stores the result", async () => {
    const agents = { main: contextSettingsSchema.parse({ focus: { enabled: true, autoConsolidateMinWindow: 3 } }) };
    h = await startHarness({ script, gateway: { extensions: [contextExtension({ agents })] } });
    const say = (text: string) => h?.send({ chatType: "dm", text, sender: { id: "owner" } });
    await say("note one");
    await say("note two");
    const [before] = await h.store.listSessions();
    expect((before?.settings[FOCUS_SETTING] as { closed: unknown[] } | undefined)?.closed).toHaveLength(2);
    await say("note three"); // the third turn: the window is over, the pass runs after it
    const [after] = await h.store.listSessions();
    const stored = after?.settings[FOCUS_SETTING] as {
      closed: { id: number; scope: string; knowledge: string; mergedInto?: number }[];
      turnsSinceConsolidation: number;
    };
    expect(stored.turnsSinceConsolidation).toBe(0);
    expect(stored.closed.filter((s) => s.mergedInto === undefined).map((s) => s.scope)).toEqual([
      "note two",
      "note one; note three",
    ]);
    await say("what do you know?");
    const sent = JSON.stringify(h.streamFn.calls.at(-1)?.context.messages);
    expect(sent.match(/db\/migrations/g)).toHaveLength(1);
    expect(sent).toContain("Logs are written by pino");
  });
});
