import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamContext } from "@chorus/core";
import { loadSkills } from "@chorus/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillsExtension } from "../src/skills/skills-extension.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const config = {
  agents: [{ id: "main", model: "fake-model", systemPrompt: "You help." }],
  channels: [{ channel: "test", admins: ["owner"] }],
};
const owner = { chatType: "dm" as const, chatId: "owner", sender: { id: "owner", name: "Owner" } };

describe("skills through the gateway", () => {
  let h: Harness | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "chorus-skills-"));
    mkdirSync(join(dir, "release"));
    writeFileSync(
      join(dir, "release", "SKILL.md"),
      "---\nname: release\ndescription: Cut a release\n---\nTag it, then announce it.\n",
    );
    mkdirSync(join(dir, "broken"));
    writeFileSync(join(dir, "broken", "SKILL.md"), "---\nname: broken\n---\nno description\n");
  });
  afterEach(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("/skills lists them; the prompt carries the descriptions; load_skill brings the body into the turn", async () => {
    const { skills, problems } = await loadSkills([dir]);
    expect(problems.map((p) => p.message)).toEqual(["front matter of skill broken has no description"]);
    const prompts: string[] = [];
    const script = (context: StreamContext) => {
      prompts.push(context.systemPrompt ?? "");
      const last = context.messages.at(-1) as { role: string; content: unknown };
      if (last.role === "toolResult") return `skill said: ${JSON.stringify(last.content)}`;
      return { toolCalls: [{ name: "load_skill", args: { name: "release" } }] };
    };
    h = await startHarness({ config, script, gateway: { extensions: [skillsExtension({ main: skills })] } });
    await h.send({ ...owner, text: "/skills" });
    const listing = h.channel.transcript("owner").at(-1) ?? "";
    expect(listing).toContain("release");
    expect(listing).toContain("Cut a release");
    expect(listing).not.toContain("broken");

    await h.send({ ...owner, text: "ship the release" });
    expect(prompts[0]).toContain("You help.");
    expect(prompts[0]).toContain("- release: Cut a release");
    expect(prompts[0]).not.toContain("Tag it");
    expect(h.channel.transcript("owner").at(-1)).toContain("Tag it, then announce it.");
  });

  it("/skill-name goes to the agent as text; a misspelt one is answered with the skill's name", async () => {
    const { skills } = await loadSkills([dir]);
    h = await startHarness({ config, script: ["on it"], gateway: { extensions: [skillsExtension({ main: skills })] } });
    await h.send({ ...owner, text: "/release v2" });
    expect(h.streamFn.calls).toHaveLength(1);
    await h.send({ ...owner, text: "/relase v2" });
    expect(h.streamFn.calls).toHaveLength(1);
    expect(h.channel.transcript("owner").at(-1)).toContain("Did you mean /release?");
  });
});
