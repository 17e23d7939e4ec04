import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseSkillFile } from "@chorus/tools";
import { SkillDraftError } from "./skill-draft-error.js";

/**
 * Where drafts wait, inside an agent's skills folder. The skill loader reads `<skills>/<name>/SKILL.md` one level
 * deep, so `<skills>/.pending/<name>/SKILL.md` is never loaded (and `.pending` is no skill name: names start with a
 * letter or digit) until approval moves it up a level.
 */
export const PENDING_FOLDER = ".pending";

const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** A draft waiting for review. */
export interface PendingDraft {
  readonly name: string;
  readonly description: string;
}

/**
 * The skill name a signature's draft gets: the signature itself when it is a valid skill name (it usually is: ASCII
 * words joined by `-`), else `auto-` and a short hash of it. Contract: pure; always a valid skill name.
 */
export function draftNameOf(signature: string): string {
  if (NAME_PATTERN.test(signature)) return signature;
  return `auto-${createHash("sha256").update(signature).digest("hex").slice(0, 12)}`;
}

/**
 * Writes a draft as `<skills>/.pending/<name>/SKILL.md` (and the seed's `manifest.json` beside it). Contract: resolves
 * false, writing nothing, when a draft or a skill of that name is already there (one draft per signature).
 */
export async function writePendingDraft(
  skillsDir: string,
  name: string,
  files: { readonly skillMd: string; readonly manifest: unknown },
): Promise<boolean> {
  if (await draftNameTaken(skillsDir, name)) return false;
  const dir = join(skillsDir, PENDING_FOLDER, name);
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(join(dir, "SKILL.md"), files.skillMd, { flag: "wx" });
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return false;
    throw error;
  }
  await writeFile(join(dir, "manifest.json"), `${JSON.stringify(files.manifest, null, 2)}\n`);
  return true;
}

/** The drafts waiting in `<skills>/.pending`, by name. Contract: never throws for a missing folder (none wait). */
export async function listPendingDrafts(skillsDir: string): Promise<PendingDraft[]> {
  let names: string[];
  try {
    names = (await readdir(join(skillsDir, PENDING_FOLDER), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && NAME_PATTERN.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
  const drafts: PendingDraft[] = [];
  for (const name of names) {
    const text = await readFile(join(skillsDir, PENDING_FOLDER, name, "SKILL.md"), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const parsed = parseSkillFile(text);
    drafts.push({ name, description: parsed.ok ? parsed.description : `(unreadable: ${parsed.message})` });
  }
  return drafts;
}

/** Whether a draft or a skill of that name is already there (checked before the draft call: no tokens for
 * nothing). Contract: throws SkillDraftError `bad-name` for anything but a skill name.
 */
export async function draftNameTaken(skillsDir: string, name: string): Promise<boolean> {
  assertSkillName(name);
  return (await exists(join(skillsDir, PENDING_FOLDER, name))) || (await exists(join(skillsDir, name)));
}

/**
 * Approves a draft: `<skills>/.pending/<name>` becomes `<skills>/<name>`, a skill the loader finds at the next start.
 * Contract: throws SkillDraftError (`bad-name` for anything but a skill name — no path ever leaves the folder,
 * `not-found`, `exists` when a skill of that name is in place).
 */
export async function approveDraft(skillsDir: string, name: string): Promise<void> {
  const from = await pendingDirOf(skillsDir, name);
  const to = join(skillsDir, name);
  if (await exists(to)) throw new SkillDraftError("exists", name);
  await rename(from, to);
}

/** Rejects a draft: its folder is deleted. Contract: throws SkillDraftError (`bad-name`, `not-found`). */
export async function rejectDraft(skillsDir: string, name: string): Promise<void> {
  await rm(await pendingDirOf(skillsDir, name), { recursive: true, force: true });
}

async function pendingDirOf(skillsDir: string, name: string): Promise<string> {
  assertSkillName(name);
  const dir = join(skillsDir, PENDING_FOLDER, name);
  if (!(await exists(join(dir, "SKILL.md")))) throw new SkillDraftError("not-found", name);
  return dir;
}

function assertSkillName(name: string): void {
  if (!NAME_PATTERN.test(name)) throw new SkillDraftError("bad-name", name);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
