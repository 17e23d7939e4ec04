/** What the standard OTEL_* variables ask of the bot's OpenTelemetry SDK. */
export interface TelemetrySettings {
  /** OTEL_SDK_DISABLED=true: no SDK at all (no spans, no metrics, no /metrics). */
  readonly disabled: boolean;
  /** Spans go to an OTLP/HTTP collector (OTEL_TRACES_EXPORTER=otlp, or an OTLP endpoint is set). */
  readonly otlpTraces: boolean;
  /** Metrics go to an OTLP/HTTP collector too (OTEL_METRICS_EXPORTER lists otlp, or an OTLP endpoint is set). */
  readonly otlpMetrics: boolean;
  /** `/metrics` serves Prometheus text (default on; OTEL_METRICS_EXPORTER without "prometheus" or "none" turns it off). */
  readonly prometheus: boolean;
  /** OTEL_SERVICE_NAME, default "chorus". */
  readonly serviceName: string;
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: prompts, output and tool arguments on spans. */
  readonly captureContent: boolean;
  /** CHORUS_TELEMETRY_SESSION_KEYS=verbatim: session keys as they are on spans (default hashed). */
  readonly sessionKeys: "hashed" | "verbatim";
}

const listOf = (value: string | undefined): string[] | undefined =>
  value === undefined || value.trim() === ""
    ? undefined
    : value
        .split(",")
        .map((part) => part.trim().toLowerCase())
        .filter((part) => part !== "");

/**
 * Reads the OTEL_* variables the bot honours (the OTLP exporters read their own endpoint, header and protocol
 * variables). Contract: pure; unknown exporter names are ignored.
 */
export function telemetrySettingsOf(env: Readonly<Record<string, string | undefined>>): TelemetrySettings {
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true";
  const endpoint =
    env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
  const metricsEndpoint =
    env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT !== undefined;
  const traces = listOf(env.OTEL_TRACES_EXPORTER);
  const metrics = listOf(env.OTEL_METRICS_EXPORTER);
  return {
    disabled,
    otlpTraces: !disabled && (traces === undefined ? endpoint : traces.includes("otlp")),
    otlpMetrics: !disabled && (metrics === undefined ? metricsEndpoint : metrics.includes("otlp")),
    prometheus: !disabled && (metrics === undefined || metrics.includes("prometheus")),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || "chorus",
    captureContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === "true",
    sessionKeys: env.CHORUS_TELEMETRY_SESSION_KEYS?.trim().toLowerCase() === "verbatim" ? "verbatim" : "hashed",
  };
}
