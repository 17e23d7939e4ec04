import { type Harness, startHarness } from "@chorus/gateway-testing";
import { writeSessionSetting } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { contextExtension, contextSettingsSchema, TODOS_SETTING } from "../../src/index.js";
import { PLAN, REMINDER, remindersIn, todoScript } from "./todo-script.js";

const AGENTS = { main: contextSettingsSchema.parse({ todos: { enabled: true } }) };
const KEY = "main:main:test:dm:user-1";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("a stored todo list that cannot be read", () => {
  it("is none: the session answers, reminds of nothing, and the next todo_write stores a good list", async () => {
    // idleEvictMs 0: the next message builds a new Agent, which reads the setting written meanwhile.
    h = await startHarness({
      script: todoScript,
      gateway: { idleEvictMs: 0, extensions: [contextExtension({ agents: AGENTS })] },
    });
    await h.send({ text: "hello" });
    await writeSessionSetting(h.store, KEY, TODOS_SETTING, { version: 9, items: "OPEN-GARBAGE" });

    await h.send({ text: "how are you?" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("ok");
    expect(remindersIn(h.streamFn.calls.at(-1)?.context)).not.toContain(REMINDER);

    await h.send({ text: "make a plan" });
    expect((await h.store.getSession(KEY))?.settings[TODOS_SETTING]).toEqual({ version: 1, items: PLAN });
  });
});
