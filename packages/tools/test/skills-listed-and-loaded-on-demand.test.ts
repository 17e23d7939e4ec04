import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, type ToolResultMessage } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSkills } from "../src/skills/load-skills.js";
import { createSkillTool } from "../src/skills/skill-tool.js";
import { skillsPromptSection } from "../src/skills/skills-prompt.js";
import { makeTempDir } from "./support/temp-workspace.js";

function writeSkill(folder: string, dir: string, text: string, extra: Record<string, string> = {}): void {
  mkdirSync(join(folder, dir), { recursive: true });
  writeFileSync(join(folder, dir, "SKILL.md"), text);
  for (const [file, body] of Object.entries(extra)) writeFileSync(join(folder, dir, file), body);
}

describe("skills (Agent Skills convention)", () => {
  let root: { dir: string; cleanup: () => void };
  let own: string;
  let shared: string;
  beforeEach(() => {
    root = makeTempDir();
    own = join(root.dir, "workspace", "skills");
    shared = join(root.dir, "shared-skills");
  });
  afterEach(() => root.cleanup());

  it("lists descriptions in the system prompt and loads a body on demand through the loop", async () => {
    writeSkill(
      own,
      "release",
      "---\nname: release\ndescription: Cut a release of the project\n---\n# Release\nRun the checklist.\n",
      {
        "checklist.md": "- tag\n",
      },
    );
    writeSkill(shared, "pdf", '---\nname: pdf\ndescription: "Fill PDF forms"\n---\nUse pdftk.\n');
    const catalog = await loadSkills([own, shared]);
    expect(catalog.skills.map((s) => s.name)).toEqual(["release", "pdf"]);

    const streamFn = scriptedStreamFn([{ toolCalls: [{ name: "load_skill", args: { name: "release" } }] }, "done"]);
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      systemPrompt: `You help.\n\n${skillsPromptSection(catalog.skills)}`,
      tools: [createSkillTool(catalog.skills)],
    });
    await agent.prompt("ship it");
    const prompt = streamFn.calls[0]?.context.systemPrompt ?? "";
    expect(prompt).toContain("- release: Cut a release of the project");
    expect(prompt).toContain("- pdf: Fill PDF forms");
    expect(prompt).not.toContain("Run the checklist");
    const result = agent.state.messages.find(
      (m) => (m as { role?: string }).role === "toolResult",
    ) as ToolResultMessage;
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    expect(text).toContain("Run the checklist.");
    expect(text).toContain("- checklist.md");
  });

  it("skips a SKILL.md with missing front matter fields, saying which, and keeps the good ones", async () => {
    writeSkill(own, "nodesc", "---\nname: nodesc\n---\nbody\n");
    writeSkill(own, "noname", "---\ndescription: something\n---\nbody\n");
    writeSkill(own, "nofront", "just a body\n");
    writeSkill(own, "good", "---\nname: good\ndescription: works\n---\nbody\n");
    const catalog = await loadSkills([own, join(root.dir, "missing")]);
    expect(catalog.skills.map((s) => s.name)).toEqual(["good"]);
    const messages = catalog.problems.map((p) => `${p.file}: ${p.message}`);
    expect(messages).toEqual([
      `${join(own, "nodesc", "SKILL.md")}: front matter of skill nodesc has no description`,
      `${join(own, "nofront", "SKILL.md")}: no front matter: SKILL.md must start with a --- block holding name and description`,
      `${join(own, "noname", "SKILL.md")}: front matter has no name`,
    ]);
  });

  it("the agent's own skill wins over a shared one of the same name; an unknown name is an error naming the known", async () => {
    writeSkill(own, "deploy", "---\nname: deploy\ndescription: ours\n---\nour way\n");
    writeSkill(shared, "deploy", "---\nname: deploy\ndescription: shared\n---\nshared way\n");
    const catalog = await loadSkills([own, shared]);
    expect(catalog.skills).toHaveLength(1);
    expect(catalog.skills[0]?.description).toBe("ours");
    const tool = createSkillTool(catalog.skills);
    const ctx = {
      signal: new AbortController().signal,
      toolCallId: "c1",
      onUpdate: () => {},
      run: { runId: "r", depth: 0 },
      addUsage: () => {},
    };
    const out = await tool.execute({ name: "nope" }, ctx);
    expect(out.isError).toBe(true);
    expect(out.content[0]).toMatchObject({ text: 'Unknown skill "nope"; known skills: deploy' });
  });
});
