import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { skillsExtension } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { SqliteMemoryStore } from "@chorus/memory";
import { type Skill, seededRandom } from "@chorus/tools";
import { afterEach, describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { skillRouterExtension } from "../src/skill-router/skill-router-extension.js";
import { skillRouterOfConfig } from "../src/skill-router/skill-router-of-config.js";

const skill = (name: string, description: string): Skill => ({
  name,
  description,
  dir: `/skills/${name}`,
  file: `/skills/${name}/SKILL.md`,
});
const SKILLS = [
  skill("deploy", "Ship a build to production"),
  skill("triage", "Sort incoming bug reports"),
  skill("translate", "Translate a document"),
];
const HINT = "A skill that may help:";

/** The scripted model: a turn hinted with `deploy` ends its turn; any other hint makes the provider fail the turn. */
const FAILED: ScriptedTurn = { fault: "error", error: { kind: "invalid_request", message: "this went badly" } };
function deployWorks(context: StreamContext): ScriptedTurn {
  return context.systemPrompt?.includes(`${HINT} deploy`) ? "Done." : FAILED;
}

/** The skill named by the hint line of each model call, in order. */
function hinted(harness: Harness): (string | undefined)[] {
  return harness.streamFn.calls.map((call) => call.context.systemPrompt?.match(/A skill that may help: (\S+)/)?.[1]);
}

let harness: Harness | undefined;
let arms: SqliteMemoryStore | undefined;
let dir: string | undefined;
afterEach(async () => {
  await harness?.close();
  await arms?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  harness = arms = dir = undefined;
});

async function start(options: {
  routed: readonly string[];
  seed: number;
  store?: SqliteMemoryStore;
  script?: (context: StreamContext) => ScriptedTurn;
}) {
  arms = options.store ?? new SqliteMemoryStore({ path: ":memory:" });
  harness = await startHarness({
    script: options.script ?? deployWorks,
    gateway: {
      extensions: [
        skillsExtension({ main: SKILLS }),
        skillRouterExtension({
          agents: options.routed,
          skillsByAgent: { main: SKILLS },
          arms,
          random: seededRandom(options.seed),
        }),
      ],
    },
  });
  return harness;
}

describe("the skill router (seed 003 steps 3, 14, 19)", () => {
  it("is off by default: no agent has it in the bot's config, and an agent it does not route gets no hint", async () => {
    const parsed = parseBotConfig({ agents: [{ id: "main", model: "openai/gpt-4.1" }] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const never = () => Promise.reject(new Error("opened a store for nothing"));
    expect(skillRouterOfConfig(parsed.config, { main: SKILLS }, undefined, never)).toEqual([]);
    const on = parseBotConfig({ agents: [{ id: "main", model: "openai/gpt-4.1", skillRouter: true }] });
    if (!on.ok) throw new Error(JSON.stringify(on.issues));
    expect(skillRouterOfConfig(on.config, { main: SKILLS }, undefined, never).map((e) => e.name)).toEqual([
      "skill-router",
    ]);
    expect(parseBotConfig({ agents: [{ id: "main", model: "openai/gpt-4.1", skillRouter: "yes" }] }).ok).toBe(false);

    const h = await start({ routed: [], seed: 1 });
    await h.send({ text: "ship it" });
    expect(h.streamFn.calls).toHaveLength(1);
    expect(h.streamFn.calls[0]?.context.systemPrompt).not.toContain(HINT);
    expect(await (arms as SqliteMemoryStore).skillArms("main")).toEqual([]);
  });

  it("on: each turn's system prompt carries exactly one hint line, naming a skill of the catalog, and its end credits that skill", async () => {
    const h = await start({ routed: ["main"], seed: 3 });
    await h.send({ text: "ship it" });
    const prompt = h.streamFn.calls[0]?.context.systemPrompt ?? "";
    const lines = prompt.split("\n").filter((line) => line.includes(HINT));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^A skill that may help: (deploy|triage|translate) — .+ \(load it with load_skill if useful\)$/,
    );
    const [name] = hinted(h);
    const stored = await (arms as SqliteMemoryStore).skillArms("main");
    // deploy's turns end their turn (success: alpha + 1); the others' fail (failure: beta + 1).
    expect(stored).toEqual([
      name === "deploy" ? { skill: "deploy", alpha: 2, beta: 1 } : { skill: name, alpha: 1, beta: 2 },
    ]);
  });

  it("a skill whose turns end well more often is picked more and more often (90 turns, fixed seeds)", async () => {
    // Turns hinted with deploy end well 80% of the time, triage 40%, translate 20% (the rest fail at the provider).
    const chance: Record<string, number> = { deploy: 0.8, triage: 0.4, translate: 0.2 };
    const world = seededRandom(7);
    const h = await start({
      routed: ["main"],
      seed: 42,
      script: (context) => {
        const name = context.systemPrompt?.match(/A skill that may help: (\S+)/)?.[1] ?? "";
        return world() < (chance[name] ?? 0) ? "Done." : FAILED;
      },
    });
    for (let turn = 0; turn < 90; turn++) await h.send({ sender: { id: `user${turn % 3}` }, text: `task ${turn}` });
    const picks = hinted(h);
    expect(picks).toHaveLength(90);
    const deploys = (from: number, to: number) => picks.slice(from, to).filter((name) => name === "deploy").length;
    // At the uniform priors deploy is picked a third of the time; as the credits come in it takes over.
    expect(deploys(60, 90)).toBeGreaterThanOrEqual(24);
    expect(deploys(60, 90)).toBeGreaterThan(deploys(0, 30));
    const stored = await (arms as SqliteMemoryStore).skillArms("main");
    const credited = stored.reduce((sum, arm) => sum + arm.alpha - 1 + arm.beta - 1, 0);
    expect(credited).toBe(90);
    const deploy = stored.find((arm) => arm.skill === "deploy");
    expect((deploy?.alpha ?? 0) + (deploy?.beta ?? 0) - 2).toBe(deploys(0, 90));
  });

  it("the arms survive a restart: a new gateway on the reopened SQLite file picks up where the last one left off", async () => {
    dir = await mkdtemp(join(tmpdir(), "chorus-skill-router-"));
    const path = join(dir, "memory.db");
    const first = await start({ routed: ["main"], seed: 5, store: new SqliteMemoryStore({ path }) });
    for (let turn = 0; turn < 30; turn++) await first.send({ text: `task ${turn}` });
    const before = await (arms as SqliteMemoryStore).skillArms("main");
    expect(before.find((arm) => arm.skill === "deploy")?.alpha).toBeGreaterThan(15);
    await first.close();
    await arms?.close();
    harness = arms = undefined;

    const reopened = new SqliteMemoryStore({ path });
    const second = await start({ routed: ["main"], seed: 6, store: reopened });
    expect(await reopened.skillArms("main")).toEqual(before);
    for (let turn = 0; turn < 5; turn++) await second.send({ text: `again ${turn}` });
    // A fresh router with no memory would pick deploy about a third of the time; this one knows it works.
    expect(hinted(second)).toEqual(["deploy", "deploy", "deploy", "deploy", "deploy"]);
  });
});
