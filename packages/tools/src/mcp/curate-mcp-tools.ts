import type { AnyAgentTool } from "@chorus/core";

/** Words of a text for matching: lower-case runs of letters and digits, snake_case and camelCase split. */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && word !== "mcp");
}

/**
 * Seed 003 step 13, by relevance: when more than `limit` MCP tools (`mcp__*`) are offered, keeps the `limit` most
 * relevant to the turn's input — BM25 over each tool's name and description — and every other tool. Ties (and a turn
 * whose words match none) keep the earlier-listed tools; what is kept stays in its original order, so the same input
 * always yields the same list.
 * Contract: pure and deterministic; a list with at most `limit` MCP tools is returned as given; `limit` < 0 is 0.
 * @example curateMcpTools(tools, "open an issue on github", 8)
 */
export function curateMcpTools(tools: readonly AnyAgentTool[], input: string, limit: number): readonly AnyAgentTool[] {
  const mcp = tools.filter((tool) => tool.name.startsWith("mcp__"));
  const keep = Math.max(0, Math.floor(limit));
  if (mcp.length <= keep) return tools;
  const documents = mcp.map((tool) => wordsOf(`${tool.name} ${tool.description}`));
  const query = [...new Set(wordsOf(input))];
  const averageLength = documents.reduce((sum, words) => sum + words.length, 0) / documents.length || 1;
  const documentFrequency = new Map<string, number>();
  for (const words of documents)
    for (const word of new Set(words)) {
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    }
  const k1 = 1.2;
  const b = 0.75;
  const scores = documents.map((words) => {
    let score = 0;
    for (const term of query) {
      const frequency = words.filter((word) => word === term).length;
      if (frequency === 0) continue;
      const n = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (documents.length - n + 0.5) / (n + 0.5));
      score += (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * words.length) / averageLength));
    }
    return score;
  });
  const chosen = new Set(
    mcp
      .map((tool, index) => ({ tool, index, score: scores[index] ?? 0 }))
      .sort((x, y) => y.score - x.score || x.index - y.index)
      .slice(0, keep)
      .map((entry) => entry.tool),
  );
  return tools.filter((tool) => !tool.name.startsWith("mcp__") || chosen.has(tool));
}
