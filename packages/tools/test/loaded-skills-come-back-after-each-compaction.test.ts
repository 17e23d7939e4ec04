import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, DEFAULT_SUMMARY_PROMPT, RESTORED_SKILLS_HEADING } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSkills } from "../src/skills/load-skills.js";
import { loadedSkillsSource } from "../src/skills/loaded-skills-source.js";
import { createSkillTool } from "../src/skills/skill-tool.js";
import { makeTempDir } from "./support/temp-workspace.js";

function writeSkill(folder: string, name: string, body: string): void {
  mkdirSync(join(folder, name), { recursive: true });
  writeFileSync(join(folder, name, "SKILL.md"), `---\nname: ${name}\ndescription: the ${name} skill\n---\n${body}\n`);
}

const firstText = (agent: Agent): string => JSON.stringify(agent.state.messages[0]);

describe("loaded skills come back after a compaction (loadedSkillsSource)", () => {
  let root: { dir: string; cleanup: () => void };
  beforeEach(() => {
    root = makeTempDir();
  });
  afterEach(() => root.cleanup());

  it("brings back the skills the session loaded, not the others, and again after the next compaction", async () => {
    writeSkill(root.dir, "release", "Run the release checklist.");
    writeSkill(root.dir, "pdf", "Use pdftk.");
    const { skills } = await loadSkills([root.dir]);
    const long = "x ".repeat(3_000);
    const streamFn = scriptedStreamFn((context) => {
      if (context.systemPrompt === DEFAULT_SUMMARY_PROMPT) return "Summary so far.";
      const last = context.messages.at(-1);
      return last?.role === "user" && JSON.stringify(last).includes("ship it")
        ? { toolCalls: [{ name: "load_skill", args: { name: "release" } }] }
        : "ok";
    });
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      tools: [createSkillTool(skills)],
      context: { restoration: { skills: loadedSkillsSource(skills) } },
    });
    await agent.prompt("ship it");
    for (const text of [long, long, "short"]) await agent.prompt(text);
    expect((await agent.compact({ keepRecentTokens: 100 })).ok).toBe(true);
    expect(firstText(agent)).toContain(RESTORED_SKILLS_HEADING);
    expect(firstText(agent)).toContain("Run the release checklist.");
    expect(firstText(agent)).not.toContain("pdftk");

    // The load_skill call is gone now; the attachment names it, so the next compaction brings it back again.
    for (const text of [long, long, "short"]) await agent.prompt(text);
    expect((await agent.compact({ keepRecentTokens: 100 })).ok).toBe(true);
    expect(firstText(agent)).toContain("Run the release checklist.");
  });
});
