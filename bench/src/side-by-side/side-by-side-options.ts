import type { BenchSystem } from "./bench-system.js";
import { type ChatSdkConcurrency, chatSdkConcurrencies } from "./chat-sdk-bot-config.js";
import { chorusBaselineSystem } from "./chorus-system.js";
import { type SideBySidePlatformName, sideBySidePlatforms, sideBySideSystems } from "./side-by-side-systems.js";

/** The side-by-side part's command-line choices (see bench/README.md). */
export interface SideBySideOptions {
  /** Run only the side-by-side part of the platforms suite. */
  readonly only: boolean;
  readonly rounds: number;
  readonly platforms: readonly SideBySidePlatformName[];
  readonly systems: readonly BenchSystem[];
  /** The system whose process writes a CPU profile (one round, that system only); undefined: no profile. */
  readonly profile: BenchSystem | undefined;
  /** `--chat-sdk-concurrency`: the Chat SDK bots' `concurrency` strategy; default `concurrent`. */
  readonly chatSdkConcurrency: ChatSdkConcurrency;
}

/** Default rounds, as issue #24 measured. */
export const DEFAULT_ROUNDS = 7;

function listOf(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(",")).filter((value) => value !== "");
}

/**
 * Reads `--side-by-side`, `--rounds N`, `--platform a[,b]`, `--system id[,id]`, `--profile [id]` and
 * `--chorus-baseline <checkout>` (another checkout's built `chorus start`, run as one more system) from the flags the
 * CLI collected. Contract: throws naming the bad value and the allowed ones.
 */
export function sideBySideOptions(flags: ReadonlyMap<string, readonly string[]>): SideBySideOptions {
  const roundsText = flags.get("rounds")?.at(-1);
  const rounds = roundsText === undefined ? DEFAULT_ROUNDS : Number(roundsText);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`--rounds must be a whole number ≥ 1, got ${roundsText}`);
  const platformNames = listOf(flags.get("platform") ?? []);
  for (const name of platformNames) {
    if (!(sideBySidePlatforms as readonly string[]).includes(name)) {
      throw new Error(`--platform ${name}: expected one of ${sideBySidePlatforms.join(", ")}`);
    }
  }
  const baselineCheckout = flags.get("chorus-baseline")?.at(-1);
  if (baselineCheckout === "") throw new Error("--chorus-baseline needs the path of another checkout (built)");
  const known = [
    ...sideBySideSystems,
    ...(baselineCheckout === undefined ? [] : [chorusBaselineSystem(baselineCheckout)]),
  ];
  const systemOf = (id: string): BenchSystem => {
    const system = known.find((s) => s.id === id);
    if (system === undefined) {
      throw new Error(`unknown system ${id}: expected one of ${known.map((s) => s.id).join(", ")}`);
    }
    return system;
  };
  const systemIds = listOf(flags.get("system") ?? []);
  for (const id of systemIds) systemOf(id);
  const profileValues = flags.get("profile");
  const profile = profileValues === undefined ? undefined : systemOf(profileValues.at(-1) || "chorus");
  const concurrency = flags.get("chat-sdk-concurrency")?.at(-1) ?? "concurrent";
  if (!(chatSdkConcurrencies as readonly string[]).includes(concurrency)) {
    throw new Error(`--chat-sdk-concurrency ${concurrency}: expected one of ${chatSdkConcurrencies.join(", ")}`);
  }
  return {
    chatSdkConcurrency: concurrency as ChatSdkConcurrency,
    only:
      flags.has("side-by-side") ||
      platformNames.length > 0 ||
      systemIds.length > 0 ||
      profile !== undefined ||
      baselineCheckout !== undefined,
    rounds: profile === undefined ? rounds : 1,
    platforms:
      platformNames.length === 0 ? sideBySidePlatforms : sideBySidePlatforms.filter((p) => platformNames.includes(p)),
    systems:
      profile !== undefined
        ? [profile]
        : systemIds.length === 0
          ? known
          : known.filter((s) => systemIds.includes(s.id)),
    profile,
  };
}
