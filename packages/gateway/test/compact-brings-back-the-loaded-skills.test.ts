import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SUMMARY_PROMPT, RESTORED_SKILLS_HEADING, type StreamContext } from "@chorus/core";
import { loadSkills } from "@chorus/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillsExtension } from "../src/skills/skills-extension.js";
import { BASE_CONFIG, startHarness } from "./fixtures/gateway-harness.js";

const KEY = "main:main:test:dm:admin";
// An admin: a guest may not call load_skill (and a failed load is not restored).
const admin = { chatType: "dm" as const, chatId: "admin", sender: { id: "admin", name: "Admin" } };

describe("/compact brings back the skills the session loaded (skills extension, seed 004)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "chorus-skills-"));
    for (const [name, body] of [
      ["release", "Tag it, then announce it."],
      ["pdf", "Use pdftk."],
    ]) {
      mkdirSync(join(dir, name as string));
      writeFileSync(
        join(dir, name as string, "SKILL.md"),
        `---\nname: ${name}\ndescription: the ${name} skill\n---\n${body}\n`,
      );
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function compactAfterLoading(contextRestoration?: Record<string, unknown>) {
    const { skills } = await loadSkills([dir]);
    const script = (context: StreamContext) => {
      if (context.systemPrompt === DEFAULT_SUMMARY_PROMPT) return "Summary: a release was prepared.";
      const last = JSON.stringify(context.messages.at(-1));
      return last.includes("ship the release")
        ? { toolCalls: [{ name: "load_skill", args: { name: "release" } }] }
        : "ok";
    };
    const h = await startHarness({
      config: {
        ...BASE_CONFIG,
        agents: [{ id: "main", model: "fake-model", ...(contextRestoration ? { contextRestoration } : {}) }],
      },
      script,
      gateway: { extensions: [skillsExtension({ main: skills })] },
    });
    const long = "x ".repeat(12_000);
    for (const text of ["ship the release", long, long, "short"]) await h.send({ ...admin, text });
    await h.send({ ...admin, text: "/compact" });
    await h.send({ ...admin, text: "what was the release procedure?" });
    const stored = JSON.stringify((await h.store.readTranscript(KEY))[0]?.message);
    const sent = JSON.stringify(h.streamFn.calls.at(-1)?.context.messages[0]);
    await h.close();
    return { stored, sent };
  }

  it("the summary's message carries the loaded skill's instructions, stored and sent, and not the others", async () => {
    const { stored, sent } = await compactAfterLoading();
    for (const message of [stored, sent]) {
      expect(message).toContain("Summary: a release was prepared.");
      expect(message).toContain(RESTORED_SKILLS_HEADING);
      expect(message).toContain("Tag it, then announce it.");
      expect(message).not.toContain("pdftk");
    }
  });

  it("nothing comes back when the agent turned context restoration off", async () => {
    const { stored } = await compactAfterLoading({ enabled: false });
    expect(stored).toContain("Summary: a release was prepared.");
    expect(stored).not.toContain("Tag it, then announce it.");
  });
});
