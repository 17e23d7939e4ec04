import { HARNESS_CONFIG, type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { TITLE_PURPOSE, titlesExtension, UnknownTitleModelError } from "../src/index.js";
import { isTitleCall, titleScript } from "./fixtures/title-script.js";

const ADMIN = { id: "admin", name: "Admin" };
const GUEST = { id: "guest-1", name: "Guest" };
const ADMIN_KEY = "main:main:test:dm:admin";
const GUEST_KEY = "main:main:test:dm:guest-1";

describe("a title written by the title model after the session's first exchange", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function start() {
    h = await startHarness({
      script: titleScript('"Planning a trip to Lisbon."'),
      gateway: { extensions: [titlesExtension({ model: "fake-large" })] },
    });
    return h;
  }

  it("comes after the reply, from the first message and the reply, is stored and shown by /agents", async () => {
    const h = await start();
    await h.send({ text: "help me plan 3 days in Lisbon", sender: ADMIN });
    expect(h.channel.transcript("dm-admin")).toEqual(["Sure!"]);
    const [turn, title, ...more] = h.streamFn.calls;
    expect(more).toEqual([]);
    expect(isTitleCall(turn!.context)).toBe(false);
    expect(title?.model.id).toBe("fake-large");
    expect(title?.options).toMatchObject({ sessionId: ADMIN_KEY, purpose: TITLE_PURPOSE });
    expect(JSON.stringify(title?.context.messages)).toContain("help me plan 3 days in Lisbon");
    expect(JSON.stringify(title?.context.messages)).toContain("Sure!");
    expect((await h.store.getSession(ADMIN_KEY))?.title).toBe("Planning a trip to Lisbon");

    await h.send({ text: "/agents sessions main", sender: ADMIN });
    expect(h.channel.transcript("dm-admin").at(-1)).toContain(`Planning a trip to Lisbon · \`${ADMIN_KEY}\``);
  });

  it("is written once: later turns of the session make no title call", async () => {
    const h = await start();
    await h.send({ text: "help me plan 3 days in Lisbon", sender: ADMIN });
    await h.send({ text: "and a day in Sintra", sender: ADMIN });
    await h.send({ text: "thanks", sender: ADMIN });
    expect(h.streamFn.calls.filter((call) => isTitleCall(call.context))).toHaveLength(1);
    expect(h.channel.transcript("dm-admin")).toEqual(["Sure!", "Sure!", "Sure!"]);
  });

  it("is written for a guest's session too", async () => {
    const h = await start();
    await h.send({ text: "what can you do?", sender: GUEST });
    expect(h.channel.transcript("dm-guest-1")).toEqual(["Sure!"]);
    expect((await h.store.getSession(GUEST_KEY))?.title).toBe("Planning a trip to Lisbon");
  });

  it("an unknown title model stops the gateway's start with the config path", async () => {
    await expect(
      startHarness({ config: HARNESS_CONFIG, gateway: { extensions: [titlesExtension({ model: "no-such-model" })] } }),
    ).rejects.toSatisfy(
      (error) =>
        error instanceof UnknownTitleModelError &&
        error.message.startsWith('titles.model: unknown model "no-such-model"'),
    );
  });
});
