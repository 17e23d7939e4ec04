import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { contextExtension, contextSettingsSchema, FOCUS_SETTING } from "../../src/index.js";
import { focusScript } from "./focus-script.js";

const AGENTS = { main: contextSettingsSchema.parse({ focus: { enabled: true, maxKnowledgeChars: 1_000 } }) };
const guest = { id: "mallory", name: "Mallory" };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("the focus tools in a group, steered by a guest", () => {
  it("are the model's to use, and bad input earns an error result that changes nothing", async () => {
    h = await startHarness({ script: focusScript, gateway: { extensions: [contextExtension({ agents: AGENTS })] } });
    await h.send({ chatType: "group", text: "explore", sender: guest, mentionsBot: true });
    await h.send({ chatType: "group", text: "explore again", sender: guest, mentionsBot: true });
    expect(h.channel.transcript("group-1").at(-1)).toContain('A focus is already open ("find the deploy script")');
    await h.send({ chatType: "group", text: "too long", sender: guest, mentionsBot: true });
    expect(h.channel.transcript("group-1").at(-1)).toContain("The knowledge is 20000 characters; at most 1000");

    const [session] = await h.store.listSessions();
    const stored = session?.settings[FOCUS_SETTING] as { open?: { scope: string }; closed: unknown[] };
    expect(stored.open?.scope).toBe("find the deploy script");
    expect(stored.closed).toEqual([]);
  });
});
