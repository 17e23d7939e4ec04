/** A SKILL.md split into its front matter fields and its body. */
export type ParsedSkillFile =
  | { readonly ok: true; readonly name: string; readonly description: string; readonly body: string }
  | { readonly ok: false; readonly message: string };

const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Parses a SKILL.md: a `---` front matter block with `name:` and `description:` (single-line values, optionally
 * quoted; other keys are ignored), then the body. Contract: never throws; a missing block, a missing or empty field
 * or a bad name is a message saying which.
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(normalized);
  if (!match)
    return { ok: false, message: "no front matter: SKILL.md must start with a --- block holding name and description" };
  const fields = new Map<string, string>();
  for (const line of (match[1] ?? "").split("\n")) {
    const field = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (field?.[1] !== undefined) fields.set(field[1], unquote((field[2] ?? "").trim()));
  }
  const name = fields.get("name") ?? "";
  const description = fields.get("description") ?? "";
  if (name === "") return { ok: false, message: "front matter has no name" };
  if (!NAME_PATTERN.test(name)) {
    return { ok: false, message: `name ${JSON.stringify(name)} must be lower-case letters, digits and '-' (1–64)` };
  }
  if (description === "") return { ok: false, message: `front matter of skill ${name} has no description` };
  return { ok: true, name, description, body: (match[2] ?? "").trim() };
}

function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) {
    return value.slice(1, -1);
  }
  return value;
}
