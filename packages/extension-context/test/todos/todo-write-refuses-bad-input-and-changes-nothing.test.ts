import { type Harness, startHarness } from "@chorus/gateway-testing";
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

describe("todo_write given a list it cannot take", () => {
  it("answers the model with an error saying why, and the stored list stays as it was", async () => {
    h = await startHarness({ script: todoScript, gateway: { extensions: [contextExtension({ agents: AGENTS })] } });
    await h.send({ text: "make a plan" });
    const said = () => h?.channel.transcript("dm-user-1").at(-1);

    await h.send({ text: "too many" });
    expect(said()).toContain("a todo list may hold at most 50 items");
    await h.send({ text: "two at once" });
    expect(said()).toContain('2 items are in_progress ("first", "second"); at most one may be');
    expect(said()).toContain("The todo list is unchanged.");
    await h.send({ text: "too long" });
    expect(said()).toContain("an item's content may be at most 500 characters");

    expect((await h.store.getSession(KEY))?.settings[TODOS_SETTING]).toEqual({ version: 1, items: PLAN });
    // Nor did the Agent's own list change: the model was reminded of the list once, when it was written.
    expect(remindersIn(h.streamFn.calls.at(-1)?.context).split(REMINDER)).toHaveLength(2);
  });
});
