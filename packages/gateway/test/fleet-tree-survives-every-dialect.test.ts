import type { MarkupDialect } from "@chorus/channel";
import { renderReplyChunks } from "@chorus/channel";
import { describe, expect, it } from "vitest";
import type { FleetRunNode, FleetView } from "../src/fleet/fleet-view.js";
import { renderFleet } from "../src/fleet/render-fleet.js";

function run(runId: string, agentId: string, depth: number, children: FleetRunNode[] = []): FleetRunNode {
  return {
    runId,
    agentId,
    sessionKey: `s-${runId}`,
    depth,
    status: "running",
    ageMs: 65_000,
    tokens: 1200 * (depth + 1),
    cost: 0.0125,
    channel: "telegram",
    chatId: "-100_group",
    children,
  };
}

function fleet(runs: FleetRunNode[]): FleetView {
  let count = 0;
  const visit = (node: FleetRunNode): void => {
    count++;
    node.children.forEach(visit);
  };
  runs.forEach(visit);
  return {
    agents: [
      { id: "main", model: "fake-model", bindings: [], sessions: 2, activeSessions: 1, runningRuns: runs.length },
    ],
    runs,
    totals: { sessions: 2, activeSessions: 1, runningRuns: count, tokens: 9_000, cost: 0.05 },
  };
}

/** The platforms' limits, as their channels declare them. */
const PLATFORMS: { dialect: MarkupDialect; maxMessageLength: number; maxLines?: number }[] = [
  { dialect: "discord-md", maxMessageLength: 2000, maxLines: 17 },
  { dialect: "slack-mrkdwn", maxMessageLength: 3500 },
  { dialect: "telegram-html", maxMessageLength: 4096 },
  { dialect: "plain", maxMessageLength: 4000 },
];

describe("/agents run tree", () => {
  const tree = fleet([run("run_root", "main", 0, [run("run_kid", "helper", 1, [run("run_grandkid", "helper", 2)])])]);

  for (const platform of PLATFORMS) {
    it(`nests a depth-2 tree with tree glyphs that survive ${platform.dialect}`, () => {
      const [message, ...rest] = renderReplyChunks(renderFleet(tree), { ...platform, markup: platform.dialect });
      expect(rest).toEqual([]);
      const lines = message!.split("\n").filter((line) => line.includes("depth "));
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(
        /^▪ \S*run_root\S* main · depth 0 · running · 65 s · 1200 tokens · \$0\.0125 · telegram -100/,
      );
      expect(lines[1]).toMatch(/^└─ \S*run_kid\S* helper · depth 1 · running/);
      expect(lines[2]).toMatch(/^│ └─ \S*run_grandkid\S* helper · depth 2 · running/);
      expect(message).toMatch(
        /Fleet\W+(b>: )?1 agent\(s\) · 1 active of 2 session\(s\) · 3 running run\(s\) \(9000 tokens · \$0\.0500 so far\)/,
      );
    });
  }

  it("fits a fleet of 60 runs into Discord's limits and counts what it leaves out", () => {
    const roots = Array.from({ length: 20 }, (_, i) =>
      run(`run_${i}`, "main", 0, [run(`run_${i}_a`, "helper", 1), run(`run_${i}_b`, "helper", 1)]),
    );
    const chunks = renderReplyChunks(renderFleet(fleet(roots)), {
      maxMessageLength: 2000,
      maxLines: 17,
      markup: "discord-md",
    });
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(2000);
      expect(chunk.split("\n").length).toBeLessThanOrEqual(17);
    }
    const text = chunks.join("\n");
    expect(text.split("\n").filter((line) => line.includes("· depth "))).toHaveLength(40);
    expect(text).toContain("… and 20 more");
  });
});
