import { formatConfigPath } from "@chorus/gateway";
import type { BotConfigIssue } from "./bot-config-error.js";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The result of replacing `${VAR}` references: the new value, or every variable that is missing. */
export type InterpolationResult = { ok: true; value: unknown } | { ok: false; issues: BotConfigIssue[] };

/**
 * Replaces `${NAME}` (and `${NAME:-fallback}`) in every string of a parsed config with the environment's value,
 * so secrets stay out of the file. `$${` writes a literal `${`.
 * Contract: never throws; a variable that is unset or empty (without a fallback) is an issue naming it and its path.
 */
export function interpolateEnv(input: unknown, env: NodeJS.ProcessEnv): InterpolationResult {
  const issues: BotConfigIssue[] = [];
  const visit = (value: unknown, path: PropertyKey[]): unknown => {
    if (typeof value === "string") return replaceInString(value, env, path, issues);
    if (Array.isArray(value)) return value.map((item, index) => visit(item, [...path, index]));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visit(item, [...path, key])]));
    }
    return value;
  };
  const value = visit(input, []);
  return issues.length === 0 ? { ok: true, value } : { ok: false, issues };
}

function replaceInString(text: string, env: NodeJS.ProcessEnv, path: PropertyKey[], issues: BotConfigIssue[]): string {
  const parts = text.split("$${");
  return parts
    .map((part) =>
      part.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
        const value = env[name];
        if (value !== undefined && value !== "") return value;
        if (fallback !== undefined) return fallback;
        issues.push({
          path: formatConfigPath(path),
          message: `environment variable ${name} is not set (referenced as \${${name}}); set it or remove the reference`,
        });
        return "";
      }),
    )
    .join("${");
}
