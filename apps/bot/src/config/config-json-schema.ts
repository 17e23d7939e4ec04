import { z } from "zod";
import { botConfigSchema } from "./bot-config-schema.js";

/**
 * The JSON Schema of chorus.config.yaml / .json, for editor completion (`# yaml-language-server: $schema=…`).
 * Contract: generated from the same zod schema that validates, as the input type (defaults optional).
 */
export function botConfigJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(botConfigSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return { ...schema, title: "Chorus configuration", $id: "https://chorus.dev/schema/chorus.config.json" };
}
