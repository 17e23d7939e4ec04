import type { AgentMessage } from "../../messages/message-types.js";
import { CONTEXT_RESTORATION_DEFAULTS, type RestoredSkill } from "./restoration-config.js";

const CHARS_PER_TOKEN = 4;

/** Heading of the restored plan's section. */
export const RESTORED_PLAN_HEADING = "The plan you were working on before the conversation was compacted:";
/** Heading of the restored todo items' section. */
export const RESTORED_TODOS_HEADING =
  "Your todo list's open items, as they were before the conversation was compacted:";
/** Heading of the restored skills' section (`<skill name="…">` blocks follow it). */
export const RESTORED_SKILLS_HEADING =
  "Skills you loaded before the conversation was compacted (their instructions still apply):";

/** What the plan, todos and skills sources answered (undefined: no source, or it failed). */
export interface RestoredParts {
  plan?: string | undefined;
  todos?: readonly string[] | undefined;
  skills?: readonly RestoredSkill[] | undefined;
}

/** The caps of the plan, todos and skills sections, and what all of them may take together. */
export interface SectionLimits {
  totalBudgetTokens?: number;
  planTokens?: number;
  todosTokens?: number;
  skillsTokens?: number;
  perSkillTokens?: number;
}

/** The sections' texts, in order (plan, todos, skills), and the tokens they take. */
export interface RestoredSections {
  texts: string[];
  tokens: number;
}

/**
 * Builds the plan, todos and skills sections of a restoration (seed 004 `restore_context_after_compact`), in that
 * order, each within its own cap and all within `totalBudgetTokens`: a long plan or skill is cut with a note, todo
 * items and skills past their cap are counted or named in a note. Contract: pure; never exceeds the limits
 * (≈ 4 characters per token); an empty part adds no section.
 */
export function restorationSections(parts: RestoredParts, limits: SectionLimits = {}): RestoredSections {
  const d = CONTEXT_RESTORATION_DEFAULTS;
  let left = limits.totalBudgetTokens ?? d.totalBudgetTokens;
  const texts: string[] = [];
  let tokens = 0;
  const add = (text: string | undefined): void => {
    if (text === undefined) return;
    // With the blank line that joins it to the next section.
    const cost = tokensOf(`${text}\n\n`);
    texts.push(text);
    tokens += cost;
    left -= cost;
  };
  const plan = parts.plan?.trim();
  if (plan) add(planSection(plan, Math.min(limits.planTokens ?? d.planTokens, left - 1)));
  if (parts.todos && parts.todos.length > 0) {
    add(todosSection(parts.todos, Math.min(limits.todosTokens ?? d.todosTokens, left - 1)));
  }
  if (parts.skills && parts.skills.length > 0) {
    const perSkill = limits.perSkillTokens ?? d.perSkillTokens;
    add(skillsSection(parts.skills, perSkill, Math.min(limits.skillsTokens ?? d.skillsTokens, left - 1)));
  }
  return { texts, tokens };
}

/**
 * The names of the skills an earlier restoration brought back (its `<skill name="…">` blocks), so a skills source can
 * carry them over the next compaction. Contract: pure; in order of appearance, each once.
 */
export function restoredSkillNames(messages: readonly AgentMessage[]): string[] {
  const names = new Set<string>();
  for (const message of messages) {
    if ((message as { role?: string }).role !== "user") continue;
    const content = (message as { content: unknown }).content;
    const texts = typeof content === "string" ? [content] : Array.isArray(content) ? content.map(textOf) : [];
    for (const text of texts) {
      const at = text.indexOf(RESTORED_SKILLS_HEADING);
      if (at < 0) continue;
      for (const match of text.slice(at).matchAll(/<skill name="([^"]*)">/g)) names.add(match[1] as string);
    }
  }
  return [...names];
}

function planSection(plan: string, capTokens: number): string | undefined {
  const open = `${RESTORED_PLAN_HEADING}\n<plan>\n`;
  const close = "\n</plan>";
  const body = cut(plan, capTokens * CHARS_PER_TOKEN - open.length - close.length, "the plan");
  return body === undefined ? undefined : open + body + close;
}

function todosSection(items: readonly string[], capTokens: number): string | undefined {
  const room = capTokens * CHARS_PER_TOKEN;
  const note = (count: number): string => (count === 0 ? "" : `\n[... ${count} more items not shown]`);
  let text = RESTORED_TODOS_HEADING;
  for (const [index, item] of items.entries()) {
    const after = note(items.length - index - 1).length;
    let line = `\n- ${item}`;
    if (text.length + line.length + after > room) {
      // The note for the items from here on fits: the previous round kept room for it.
      if (index > 0) return text + note(items.length - index);
      const body = cut(item, room - text.length - after - 3, "the item");
      if (body === undefined) return undefined;
      line = `\n- ${body}`;
    }
    text += line;
  }
  return text;
}

function skillsSection(
  skills: readonly RestoredSkill[],
  perSkillTokens: number,
  capTokens: number,
): string | undefined {
  const room = capTokens * CHARS_PER_TOKEN;
  const seen = new Set<string>();
  const blocks: string[] = [];
  const left: string[] = [];
  let used = RESTORED_SKILLS_HEADING.length;
  for (const skill of skills) {
    if (seen.has(skill.name)) continue;
    seen.add(skill.name);
    const name = skill.name.replaceAll('"', "'");
    const open = `\n\n<skill name="${name}">\n`;
    const close = "\n</skill>";
    const body = cut(skill.content, perSkillTokens * CHARS_PER_TOKEN - open.length - close.length, "the skill");
    // A skill that does not fit whole (as cut to its own cap) is named in the note rather than cut further.
    if (body === undefined || used + open.length + body.length + close.length > room - NOTE_ROOM) {
      left.push(name);
      continue;
    }
    const block = open + body + close;
    blocks.push(block);
    used += block.length;
  }
  if (blocks.length === 0) return undefined;
  const note = left.length === 0 ? "" : `\n\n[... not restored, load again if needed: ${left.join(", ")}]`;
  const text = RESTORED_SKILLS_HEADING + blocks.join("") + note;
  return text.length <= room ? text : RESTORED_SKILLS_HEADING + blocks.join("");
}

/** Room kept in the skills section for the note naming the skills left out. */
const NOTE_ROOM = 200;

/** `text` within `room` characters, cut with a note when longer; undefined when not even the note fits. */
function cut(text: string, room: number, what: string): string | undefined {
  if (text.length <= room) return text;
  const note = `\n[... cut: ${text.length} characters in all; the rest of ${what} is not shown]`;
  if (room - note.length < 100) return undefined;
  return text.slice(0, room - note.length) + note;
}

function tokensOf(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function textOf(part: unknown): string {
  const p = part as { type?: string; text?: unknown };
  return p.type === "text" && typeof p.text === "string" ? p.text : "";
}
