import { describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { botExtensions } from "../src/runtime/bot-extensions.js";

// `agents[].skillDrafter: true` composes the drafter (and `/skilldrafts`); without it, nothing of it is there.
describe("agents[].skillDrafter", () => {
  const extensionsOf = (agents: unknown[]) => {
    const parsed = parseBotConfig({ dataDir: "./data", agents });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    return botExtensions(parsed.config, {}, undefined, {
      dataDir: "./data",
      filesOf: () => ({ root: "./w", guestReadFolders: [] }),
    });
  };
  const commandNames = (agents: unknown[]) =>
    extensionsOf(agents).flatMap((extension) => (extension.commands ?? []).map((command) => command.name));

  it("is off by default: no drafter, no /skilldrafts", () => {
    expect(commandNames([{ id: "main", model: "demo" }])).not.toContain("skilldrafts");
  });

  it("when true adds the drafter with /skilldrafts", () => {
    const names = extensionsOf([{ id: "main", model: "demo", skillDrafter: true }]).map((extension) => extension.name);
    expect(names).toContain("skill-drafter");
    expect(commandNames([{ id: "main", model: "demo", skillDrafter: true }])).toContain("skilldrafts");
  });

  it("rejects anything but a boolean, naming the path", () => {
    const parsed = parseBotConfig({ dataDir: "./data", agents: [{ id: "main", model: "demo", skillDrafter: "yes" }] });
    expect(parsed.ok).toBe(false);
    expect(JSON.stringify(parsed.ok ? [] : parsed.issues)).toContain("skillDrafter");
  });
});
