import type { GatewayConfigInput, GatewayExtension, GatewayOptions } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./gateway-harness.js";

/** How a refusal to a guest starts, whichever rule refused. */
const REFUSAL = /^(You are not authorised|Only an admin|Only admins|You cannot change)/;

/** A group whose members are guests, and a guest in it. */
const GUEST_CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [
    {
      channel: "test",
      admins: ["owner"],
      dmPolicy: "open",
      groups: { guests: { requireMention: false, trust: "guest" } },
    },
  ],
};
const guest = { chatType: "group" as const, chatId: "guests", sender: { id: "guest", name: "Guest" } };

/** What `describeCommandRowsWalkedByAGuest` needs: the extension under test and, optionally, more of the gateway. */
export interface GuestWalk {
  /** The extension whose `commandPermissions` rows are walked (given first, before `extensions`). */
  readonly extension: GatewayExtension;
  /** The gateway's config (default: agent `main`, a group `guests` whose members are guests, `owner` an admin). */
  readonly config?: GatewayConfigInput;
  /** Extensions the commands need beside it (e.g. autonomy first for budgets). */
  readonly extensions?: readonly GatewayExtension[];
  readonly gateway?: Partial<GatewayOptions>;
  /** Run once the gateway answers (e.g. a fact to forget). */
  setUp?(harness: Harness): Promise<void>;
  /** What a refused command must leave as it was, besides the session's settings and the model calls. */
  state?(harness: Harness): Promise<unknown>;
}

/**
 * Registers the walk of an extension's rows of docs/security.md's command table: a guest in a group types each
 * row's examples; a row that says `refused` must be answered with a refusal and change, store and spend nothing, any
 * other must not be refused. Contract: fails when the extension declares no rows.
 * @example describeCommandRowsWalkedByAGuest("memory", { extension: memoryExtension({ store }) });
 */
export function describeCommandRowsWalkedByAGuest(name: string, walk: GuestWalk): void {
  describe(`docs/security.md's ${name} rows, walked by a guest in a group`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({
        config: walk.config ?? GUEST_CONFIG,
        script: () => "ok",
        gateway: { rateCap: false, ...walk.gateway, extensions: [...(walk.extensions ?? []), walk.extension] },
      });
      await h.send({ ...guest, text: "hello" });
      await walk.setUp?.(h);
    });
    afterAll(async () => {
      await h.close();
    });

    const state = async () => {
      const session = (await h.store.listSessions({ agentId: "main" })).find((s) => s.chatId === "guests");
      return { settings: session?.settings, modelCalls: h.streamFn.calls.length, own: await walk.state?.(h) };
    };
    const rows = walk.extension.commandPermissions ?? [];
    const examples = rows.flatMap((row) => row.examples.map((text) => ({ text, row })));

    it("has rows", () => {
      expect(examples.length).toBeGreaterThan(0);
    });

    it.each(examples)("a guest in a group: $text → $row.guestInGroup", async ({ text, row }) => {
      const before = await state();
      await h.send({ ...guest, text });
      const answer = h.channel.transcript("guests").at(-1) ?? "";
      if (row.guestInGroup === "refused") {
        expect(answer).toMatch(REFUSAL);
        expect(await state()).toEqual(before);
      } else {
        expect(answer).not.toMatch(REFUSAL);
      }
    });
  });
}
