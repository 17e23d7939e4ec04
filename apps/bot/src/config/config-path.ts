/** Writes a path the way a user finds it in their config file: `channels.telegram[0].groups["-100"].trust`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (typeof part === "string" && /^[A-Za-z_$][\w$]*$/.test(part)) out += out.length === 0 ? part : `.${part}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out.length === 0 ? "(root)" : out;
}
