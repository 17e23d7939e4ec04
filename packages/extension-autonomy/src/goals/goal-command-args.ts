import type { GoalConfig } from "@chorus/gateway";
import type { TrustTier } from "@chorus/store";

/** What a `/goal …` command asks for, or why it is refused. */
export type GoalRequest =
  | { readonly kind: "show" }
  | { readonly kind: "set"; readonly text: string }
  | { readonly kind: "auto"; readonly text: string; readonly turns: number }
  | { readonly kind: "stop" | "pause" | "resume" | "clear" | "done" }
  /** `/goal stop|pause|resume <id>`: an autonomous goal of any chat, named by its id (or its first 8 characters). */
  | { readonly kind: "control"; readonly action: "stop" | "pause" | "resume"; readonly goalId: string }
  | { readonly kind: "refused"; readonly message: string };

export const GOAL_USAGE =
  "/goal [<text> | create [--auto [--turns N]] <text> | stop | pause | resume [<id>] | done | clear]";

/** A goal id as `/goal stop <id>` takes it: the whole id, or its first 8 characters as /agents shows them. */
const GOAL_ID = /^[0-9a-f]{8}(?:-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?$/i;

const CONTROLS = new Set(["stop", "pause", "resume"]);

/** Words that are subcommands when they are the whole argument (`/goal stop smoking` sets a goal). */
const ALONE = new Set(["stop", "pause", "resume", "clear", "done"]);

const TIER_RANK: Record<TrustTier, number> = { guest: 0, trusted: 1, owner: 2 };

/**
 * Reads `/goal` arguments against the agent's goal settings and the sender's trust tier. `--auto` is refused here
 * when autonomous goals are off or the sender's tier is below `autonomousMinTier`; `--turns` must be a whole number
 * from 1 to `autonomousMaxTurns` (default: that limit).
 * Contract: pure; a refusal carries a sentence for the chat, and nothing has been stored.
 */
export function parseGoalArgs(args: readonly string[], config: GoalConfig, tier: TrustTier): GoalRequest {
  if (!config.enabled) return refuse("Goals are off for this agent.");
  if (args.length === 0) return { kind: "show" };
  const [first, ...rest] = args;
  if (args.length === 2 && CONTROLS.has(first!.toLowerCase()) && GOAL_ID.test(args[1]!)) {
    const action = first!.toLowerCase() as "stop" | "pause" | "resume";
    return { kind: "control", action, goalId: args[1]!.toLowerCase() };
  }
  if (args.length === 1 && ALONE.has(first!.toLowerCase())) {
    return { kind: first!.toLowerCase() as "stop" | "pause" | "resume" | "clear" | "done" };
  }
  if (first!.toLowerCase() !== "create") return { kind: "set", text: args.join(" ") };
  let auto = false;
  let turns: string | undefined;
  let index = 0;
  for (; index < rest.length; index++) {
    const word = rest[index]!;
    if (word === "--auto") auto = true;
    else if (word === "--turns") {
      turns = rest[index + 1];
      if (turns === undefined) return refuse("--turns needs a number, e.g. --turns 10.");
      index++;
    } else if (word.startsWith("--turns=")) turns = word.slice("--turns=".length);
    else if (word.startsWith("--")) return refuse(`Unknown option ${word}. Usage: ${GOAL_USAGE}`);
    else break;
  }
  const text = rest.slice(index).join(" ").trim();
  if (!auto) {
    if (turns !== undefined) return refuse("--turns only goes with --auto: /goal create --auto --turns N <text>.");
    return text === "" ? refuse(`What is the goal? Usage: ${GOAL_USAGE}`) : { kind: "set", text };
  }
  if (!config.autonomousEnabled) {
    return refuse(
      "Autonomous goals are off for this agent (goals.autonomousEnabled is false); /goal <text> still works.",
    );
  }
  if (TIER_RANK[tier] < TIER_RANK[config.autonomousMinTier]) {
    return refuse(
      config.autonomousMinTier === "owner"
        ? "Only admins can start an autonomous goal: it runs the model on its own, and that costs money."
        : "Only trusted members and admins can start an autonomous goal: it runs the model on its own, and that costs money.",
    );
  }
  let limit = config.autonomousMaxTurns;
  if (turns !== undefined) {
    if (!/^[+-]?\d+$/.test(turns)) return refuse(`--turns takes a whole number of turns, not "${turns}".`);
    const n = Number(turns);
    if (n < 1) return refuse(`--turns must be at least 1 (got ${n}).`);
    if (n > config.autonomousMaxTurns) {
      return refuse(`--turns can be at most ${config.autonomousMaxTurns} here (got ${n}).`);
    }
    limit = n;
  }
  if (text === "") return refuse(`What is the goal? Usage: ${GOAL_USAGE}`);
  return { kind: "auto", text, turns: limit };
}

function refuse(message: string): GoalRequest {
  return { kind: "refused", message };
}
