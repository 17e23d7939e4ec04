import type { TurnSteps } from "./turn-steps.js";

/** Characters of the request kept in a draft's one-line description. */
const DESCRIPTION_CHARS = 150;
/** Characters of the reply kept in the template's last step. */
const REPLY_CHARS = 400;

/**
 * A drafted SKILL.md: front matter the skill loader reads (`name`, a one-line `description`) plus markers for the
 * reviewer (`status: pending-review`, `auto_drafted`, the signature), then `body`. Contract: pure; the result always
 * parses with @chorus/tools' `parseSkillFile` under `name`.
 */
export function skillDraftMarkdown(name: string, signature: string, steps: TurnSteps, body: string): string {
  const request = oneLine(steps.request).slice(0, DESCRIPTION_CHARS) || signature;
  return [
    "---",
    `name: ${name}`,
    `description: Drafted from three successful turns like: ${request}`,
    "status: pending-review",
    "auto_drafted: true",
    `signature: ${signature}`,
    "---",
    "",
    "> Drafted automatically after three consecutive successful turns on one task; review it before approving.",
    "",
    body.trim(),
    "",
  ].join("\n");
}

/** The body written without a model (and when the model's draft fails): the request, the tool calls, the answer.
 * Contract: pure; numbered steps, the answer last.
 */
export function templateSkillBody(name: string, steps: TurnSteps): string {
  const numbered = [
    ...steps.toolCalls.map((call) => `Call \`${call.name}\` with \`${call.arguments}\`.`),
    `Answer with the result${steps.reply === "" ? "." : `, e.g.: ${oneLine(steps.reply).slice(0, REPLY_CHARS)}`}`,
  ].map((step, index) => `${index + 1}. ${step}`);
  return [`# ${name}`, "", "## When to use", "", oneLine(steps.request) || name, "", "## Steps", "", ...numbered].join(
    "\n",
  );
}

/** A model-written body without a front matter block of its own (it would end ours early). Contract: pure. */
export function withoutFrontMatter(text: string): string {
  return text.replace(/^\s*---\n[\s\S]*?\n---\n?/, "").trim();
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
