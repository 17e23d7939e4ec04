// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretsOf } from "../src/config/config-secrets.js";
import { loadBotConfigFile } from "../src/config/load-bot-config.js";
import { resolveBotConfig } from "../src/config/resolve-bot-config.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-pg-config-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const URL_WITH_PASSWORD = "postgres://chorus:p%40ss-w0rd@db.internal:5432/chorus";

async function configFile(name: string, lines: string[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, [...lines, ""].join("\n"));
  return path;
}

const agents = ["agents:", "  - id: assistant", "    model: openai/gpt-4.1"];

describe("choosing the PostgreSQL store", () => {
  it("takes store: { kind: postgres, url: ${DATABASE_URL} } from the config file", async () => {
    const path = await configFile("explicit.yaml", [
      ...agents,
      "store:",
      "  kind: postgres",
      "  url: ${DATABASE_URL}",
      "  schema: bot_one",
    ]);
    const { config } = await loadBotConfigFile(path, { DATABASE_URL: URL_WITH_PASSWORD });
    expect(config.store).toEqual({ kind: "postgres", url: URL_WITH_PASSWORD, schema: "bot_one" });
  });

  it("uses DATABASE_URL when the config names no store, and SQLite otherwise", async () => {
    const path = await configFile("no-store.yaml", agents);
    expect((await loadBotConfigFile(path, { DATABASE_URL: URL_WITH_PASSWORD })).config.store).toEqual({
      kind: "postgres",
      url: URL_WITH_PASSWORD,
    });
    expect((await loadBotConfigFile(path, {})).config.store).toEqual({ kind: "sqlite" });
    // A store the file names wins over the environment.
    const sqlite = await configFile("sqlite.yaml", [...agents, "store: { kind: sqlite }"]);
    expect((await loadBotConfigFile(sqlite, { DATABASE_URL: URL_WITH_PASSWORD })).config.store).toEqual({
      kind: "sqlite",
    });
    // Without a config file, the defaults from the environment do the same.
    const defaults = await resolveBotConfig({
      configPath: undefined,
      cwd: dir,
      env: { DATABASE_URL: URL_WITH_PASSWORD },
    });
    expect(defaults.config.store).toEqual({ kind: "postgres", url: URL_WITH_PASSWORD });
  });

  it("refuses a URL that is not postgres:// and a schema that is not a plain name, naming the field", async () => {
    const path = await configFile("bad.yaml", [
      ...agents,
      "store: { kind: postgres, url: 'mysql://x@y/z', schema: 'a-b' }",
    ]);
    const message = await loadBotConfigFile(path, {}).then(
      () => "loaded",
      (failure: unknown) => (failure as Error).message,
    );
    expect(message).toContain("store.url");
    expect(message).toContain("expected a postgres:// or postgresql:// URL");
    expect(message).toContain("store.schema");
  });

  it("counts the database password among the secrets the logger scrubs, as written and decoded", async () => {
    const path = await configFile("secret.yaml", agents);
    const { config } = await loadBotConfigFile(path, { DATABASE_URL: URL_WITH_PASSWORD });
    expect(secretsOf(config)).toEqual(expect.arrayContaining(["p%40ss-w0rd", "p@ss-w0rd"]));
  });
});
