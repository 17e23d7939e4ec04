import { captureTelemetry, type TelemetryCapture } from "@chorus/testkit";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";
import { subagentScript } from "./fixtures/subagent-script.js";

const CONFIG = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test" as const, dmPolicy: "open" as const, admins: ["user-1"] }],
};
const AGENTS = { main: { subagents: { helper: { description: "helps", tools: [] } } } };

let capture: TelemetryCapture;
let h: Harness;
beforeEach(() => {
  capture = captureTelemetry();
});
afterEach(async () => {
  await h.close();
  await capture.stop();
});

const traceparentOf = (span: ReadableSpan): string =>
  `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

it("stores a sub-agent run's invoke_agent span with the run as it starts, under the parent's execute_tool", async () => {
  h = await startHarness({ config: CONFIG, script: subagentScript(), gateway: { agents: AGENTS } });
  await h.send({ text: "spawn wait quick" });
  await h.gateway.idle();
  expect(h.channel.transcript("dm-user-1").at(-1)).toContain("done:");

  const spans = capture.spans();
  const helper = spans.find((span) => span.name === "invoke_agent helper") as ReadableSpan;
  const tool = spans.find((span) => span.name === "execute_tool spawn_agent") as ReadableSpan;
  // The span the sub-agent ran under (started ahead of the run, so it could be stored with it) is still the one that
  // carries its run's attributes, in its parent's trace.
  expect(helper.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "chorus.run.depth": 1 });
  expect(helper.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
  expect(helper.spanContext().traceId).toBe(tool.spanContext().traceId);
  const child = (await h.store.listRuns({})).find((run) => run.depth === 1);
  expect(child?.id).toBe(helper.attributes["chorus.run.id"]);
  expect(child?.traceparent).toBe(traceparentOf(helper));
});
