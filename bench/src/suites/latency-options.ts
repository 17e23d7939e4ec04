/** The latency suite's platforms, in table order. */
export const latencyPlatforms = ["telegram", "discord", "slack"] as const;
export type LatencyPlatformName = (typeof latencyPlatforms)[number];

/** Which rows of the latency suite run: `--platform a[,b]`, `--telemetry off|on`, `--messages N`, `--warmup N`. */
export interface LatencyOptions {
  readonly platforms: readonly LatencyPlatformName[];
  readonly telemetry: readonly ("off" | "on")[];
  /** Timed messages per row; undefined: the suite's default. */
  readonly messages: number | undefined;
  /** Warm-up messages per row; undefined: the suite's default. */
  readonly warmupMessages: number | undefined;
}

function listOf(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(",")).filter((value) => value !== "");
}

/**
 * Reads the latency suite's flags; no flag: every platform, telemetry off then on.
 * Contract: throws naming the bad value and the allowed ones.
 */
export function latencyOptions(flags: ReadonlyMap<string, readonly string[]>): LatencyOptions {
  const platformNames = listOf(flags.get("platform") ?? []);
  for (const name of platformNames) {
    if (!(latencyPlatforms as readonly string[]).includes(name)) {
      throw new Error(`--platform ${name}: expected one of ${latencyPlatforms.join(", ")}`);
    }
  }
  const telemetryNames = listOf(flags.get("telemetry") ?? []);
  for (const name of telemetryNames) {
    if (name !== "off" && name !== "on") throw new Error(`--telemetry ${name}: expected off or on`);
  }
  const messages = wholeNumberFlag(flags, "messages", 1);
  const warmupMessages = wholeNumberFlag(flags, "warmup", 0);
  return {
    platforms:
      platformNames.length === 0 ? latencyPlatforms : latencyPlatforms.filter((p) => platformNames.includes(p)),
    telemetry:
      telemetryNames.length === 0 ? ["off", "on"] : (["off", "on"] as const).filter((t) => telemetryNames.includes(t)),
    messages,
    warmupMessages,
  };
}

function wholeNumberFlag(flags: ReadonlyMap<string, readonly string[]>, name: string, min: number): number | undefined {
  const text = flags.get(name)?.at(-1);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`--${name} must be a whole number ≥ ${min}, got ${text}`);
  return value;
}
