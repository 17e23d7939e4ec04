import { it, vi } from "vitest";

vi.mock("@chorus/gateway", async () => ({
  ...(await import("../../packages/gateway/src/index.js")),
  ...(await import("../../packages/gateway/src/channels/index.js")),
  ...(await import("../../packages/gateway/src/runtime-index.js")),
}));

it("measures", async () => {
  const { platformsSuite } = await import("../src/suites/platforms.js");
  const { renderTable } = await import("../src/report/render-table.js");
  const report = await platformsSuite.run((line) => process.stderr.write(`${line}\n`));
  for (const table of report.tables) console.log(`\n${renderTable(table)}`);
}, 900_000);
