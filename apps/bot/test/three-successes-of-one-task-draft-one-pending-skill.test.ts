import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ScriptedTurn } from "@chorus/core/testing";
import { utcDay } from "@chorus/gateway";
import type { Harness } from "@chorus/gateway-testing";
import { loadSkills, parseSkillFile } from "@chorus/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SKILL_DRAFT_PURPOSE } from "../src/skill-drafts/model-skill-body.js";
import {
  ADMIN,
  ADMIN_DM_KEY,
  FAILING_TURN,
  isDraftCall,
  startDrafterGateway,
  tempSkillsDir,
} from "./support/skill-drafter-gateway.js";

// Seed 003 step 20: three consecutive successes on one task signature draft a skill; any failure resets that
// signature's streak. The draft waits in <skills>/.pending, where the loader never looks.

const DEPLOY = [
  "Deploy the staging branch to Kubernetes",
  "please deploy staging branch on kubernetes!",
  "kubernetes: deploy (staging) branch",
];

let dir: Awaited<ReturnType<typeof tempSkillsDir>>;
let h: Harness | undefined;
beforeEach(async () => {
  dir = await tempSkillsDir();
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  await dir.remove();
});

const pendingNames = async () =>
  readdir(join(dir.skillsDir, ".pending")).then(
    (names) => names.sort(),
    () => [],
  );

describe("the auto-skill drafter", () => {
  it("drafts exactly one pending SKILL.md after three successes of one signature, through a budgeted skill_draft call", async () => {
    h = await startDrafterGateway({ skillsDir: dir.skillsDir });
    for (const text of DEPLOY.slice(0, 2)) await h.send({ text, sender: ADMIN });
    expect(await pendingNames()).toEqual([]);
    await h.send({ text: DEPLOY[2] ?? "", sender: ADMIN });

    expect(await pendingNames()).toEqual(["deploy-kubernetes-staging"]);
    const file = join(dir.skillsDir, ".pending", "deploy-kubernetes-staging", "SKILL.md");
    const parsed = parseSkillFile(await readFile(file, "utf8"));
    expect(parsed).toMatchObject({ ok: true, name: "deploy-kubernetes-staging" });
    expect(parsed.ok && parsed.body).toContain("1. Run the deploy.");
    expect(await readFile(file, "utf8")).toContain("status: pending-review");
    const draftCalls = h.streamFn.calls.filter((call) => isDraftCall(call.context));
    expect(draftCalls.map((call) => call.options)).toMatchObject([
      { sessionId: ADMIN_DM_KEY, purpose: SKILL_DRAFT_PURPOSE },
    ]);
    expect(JSON.stringify(draftCalls[0]?.context.messages)).toContain("kubernetes: deploy (staging) branch");
    // Reserved and booked by the budgets (autonomy's, given first) under its own kind, against the session's agent.
    const spent = await h.store.listSpend({ kind: "purpose", fromPeriod: utcDay(Date.now()), toPeriod: "9999" });
    expect(spent.map((row) => row.subject)).toContain("main:skill_draft");

    // Three more successes of the same task draft nothing more: one draft per signature.
    for (const text of DEPLOY) await h.send({ text, sender: ADMIN });
    expect(await pendingNames()).toEqual(["deploy-kubernetes-staging"]);
    expect(h.streamFn.calls.filter((call) => isDraftCall(call.context))).toHaveLength(1);
  });

  it("resets a signature's streak on a failure: only three successes in a row draft", async () => {
    let next: ScriptedTurn = "Done.";
    h = await startDrafterGateway({ skillsDir: dir.skillsDir, turn: () => next });
    await h.send({ text: DEPLOY[0] ?? "", sender: ADMIN });
    await h.send({ text: DEPLOY[1] ?? "", sender: ADMIN });
    next = FAILING_TURN;
    await h.send({ text: DEPLOY[2] ?? "", sender: ADMIN });
    next = "Done.";
    await h.send({ text: DEPLOY[0] ?? "", sender: ADMIN });
    // Another task's success in between neither breaks nor counts for this one's streak.
    await h.send({ text: "summarise yesterday's incidents", sender: ADMIN });
    await h.send({ text: DEPLOY[1] ?? "", sender: ADMIN });
    expect(await pendingNames()).toEqual([]);
    await h.send({ text: DEPLOY[2] ?? "", sender: ADMIN });
    expect(await pendingNames()).toEqual(["deploy-kubernetes-staging"]);
  });

  it("writes the template from the turn's steps when the draft call fails", async () => {
    h = await startDrafterGateway({ skillsDir: dir.skillsDir, draft: FAILING_TURN });
    for (const text of DEPLOY) await h.send({ text, sender: ADMIN });
    const text = await readFile(join(dir.skillsDir, ".pending", "deploy-kubernetes-staging", "SKILL.md"), "utf8");
    expect(text).toContain("## Steps");
    expect(text).toContain("Answer with the result, e.g.: Done.");
  });

  it("keeps the pending draft out of the loader, /skills and the agent's prompt", async () => {
    h = await startDrafterGateway({ skillsDir: dir.skillsDir });
    for (const text of DEPLOY) await h.send({ text, sender: ADMIN });
    await h.close();
    expect(await pendingNames()).toEqual(["deploy-kubernetes-staging"]);

    expect((await loadSkills([dir.skillsDir])).skills).toEqual([]);
    h = await startDrafterGateway({ skillsDir: dir.skillsDir });
    await h.send({ text: "/skills", sender: ADMIN });
    await h.send({ text: "what can you do?", sender: ADMIN });
    expect(h.channel.transcript("dm-admin")).toContain("This agent has no skills.");
    const prompts = h.streamFn.calls.map((call) => call.context.systemPrompt ?? "").join("\n");
    expect(prompts).not.toContain("deploy-kubernetes-staging");
  });
});
