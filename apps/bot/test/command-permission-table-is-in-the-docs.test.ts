import { readFile } from "node:fs/promises";
import { commandPermissionsOf, renderCommandPermissionTable } from "@chorus/gateway";
import { describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { botExtensions } from "../src/runtime/bot-extensions.js";

const SECURITY_DOC = new URL("../../../docs/security.md", import.meta.url);

describe("docs/security.md's table of who may use each command", () => {
  it("is the table of the bot's builtin commands and of the extensions it composes (they cannot drift apart)", async () => {
    const parsed = parseBotConfig({ dataDir: "./data", agents: [{ id: "main", model: "demo" }] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const doc = await readFile(SECURITY_DOC, "utf8");
    const table = /<!-- command-table:start -->\n([\s\S]*?)\n<!-- command-table:end -->/.exec(doc)?.[1];
    expect(table).toBe(renderCommandPermissionTable(commandPermissionsOf(botExtensions(parsed.config, {}, undefined))));
  });
});
