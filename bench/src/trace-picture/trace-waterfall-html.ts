import type { ReadableSpan } from "@opentelemetry/sdk-trace";

const KIND = ["INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER"];
const SHOWN = [
  "chorus.channel",
  "chorus.inbound.verdict",
  "chorus.queue.wait_ms",
  "gen_ai.request.model",
  "gen_ai.usage.input_tokens",
  "gen_ai.usage.output_tokens",
  "gen_ai.response.finish_reasons",
  "gen_ai.tool.call.id",
  "chorus.tool.outcome",
  "chorus.platform.status",
];

const ms = (time: readonly [number, number]): number => time[0] * 1000 + time[1] / 1e6;
const htmlText = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** One trace as a self-contained HTML waterfall (what Jaeger would show), from an in-memory exporter's spans. */
export function traceWaterfallHtml(spans: readonly ReadableSpan[]): string {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const depth = (span: ReadableSpan): number => {
    const parent = span.parentSpanContext === undefined ? undefined : byId.get(span.parentSpanContext.spanId);
    return parent === undefined ? 0 : depth(parent) + 1;
  };
  // Depth first: each span under its parent, siblings by start time.
  const byStart = [...spans].sort((a, b) => ms(a.startTime) - ms(b.startTime));
  const ordered: ReadableSpan[] = [];
  const visit = (parentId: string | undefined): void => {
    for (const span of byStart) {
      const parent = span.parentSpanContext?.spanId;
      const isChild = parentId === undefined ? parent === undefined || !byId.has(parent) : parent === parentId;
      if (!isChild) continue;
      ordered.push(span);
      visit(span.spanContext().spanId);
    }
  };
  visit(undefined);
  const start = Math.min(...ordered.map((span) => ms(span.startTime)));
  const end = Math.max(...ordered.map((span) => ms(span.endTime)));
  const total = Math.max(1, end - start);
  const rows = ordered.map((span) => {
    const left = ((ms(span.startTime) - start) / total) * 100;
    const width = Math.max(0.4, ((ms(span.endTime) - ms(span.startTime)) / total) * 100);
    const attributes = SHOWN.filter((key) => span.attributes[key] !== undefined)
      .map((key) => {
        const value = span.attributes[key];
        const shown = typeof value === "number" && !Number.isInteger(value) ? value.toFixed(2) : String(value);
        return `${key.replace(/^(gen_ai|chorus)\./, "")}=${shown}`;
      })
      .join(" · ");
    const kind = KIND[span.kind] ?? "";
    return `<div class="row"><div class="name" style="padding-left:${depth(span) * 18 + 8}px">${htmlText(span.name)}
      <span class="kind">${kind}</span><div class="attrs">${htmlText(attributes)}</div></div>
      <div class="lane"><div class="bar k${span.kind}" style="left:${left}%;width:${width}%"></div>
      <span class="dur" style="left:calc(${left + width}% + 6px)">${(ms(span.endTime) - ms(span.startTime)).toFixed(1)} ms</span></div></div>`;
  });
  return `<!doctype html><meta charset="utf-8"><title>Chorus trace</title><style>
body{font:13px system-ui,sans-serif;margin:16px;color:#1f2933;background:#fff}
h1{font-size:15px;margin:0 0 10px}
.row{display:flex;border-bottom:1px solid #e4e7eb;min-height:40px;align-items:center}
.name{width:430px;flex:none;font-weight:600}.kind{font-weight:400;color:#7b8794;font-size:11px;margin-left:6px}
.attrs{font-weight:400;color:#52606d;font-size:11px;margin-top:2px}
.lane{position:relative;flex:1;height:40px}.bar{position:absolute;top:12px;height:16px;border-radius:3px}
.dur{position:absolute;top:12px;font-size:11px;color:#52606d;white-space:nowrap}
.k0{background:#7c5e10}.k2{background:#2680c2}.k3{background:#3ebd93}.k4{background:#9446ed}
</style><h1>One turn: a Telegram-like message → agent → tool spawning a sub-agent → reply (${total.toFixed(0)} ms)</h1>${rows.join("")}`;
}
