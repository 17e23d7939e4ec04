import { readFile } from "node:fs/promises";

/** The parts of a V8 `.cpuprofile` the summary reads. */
interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
    readonly children?: readonly number[];
  }>;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  /** Monotonic clock, µs, of the profile's start (samples are at startTime + the running sum of timeDeltas). */
  readonly startTime: number;
}

/** One row of a summary: self time of a package or function. */
export interface ProfileEntry {
  readonly name: string;
  /** Package of a function row (same as `name` for package rows). */
  readonly pkg: string;
  /** `file:line` of a function row; empty for package rows. */
  readonly location: string;
  readonly selfMs: number;
  /** Share of the profile's busy time (everything but `(idle)`), in %. */
  readonly percent: number;
}

/** Self time by package and by function. */
export interface ProfileSummary {
  /** Whether only the samples inside the requested window were counted (false: the whole profile). */
  readonly windowed: boolean;
  readonly totalMs: number;
  readonly idleMs: number;
  readonly byPackage: readonly ProfileEntry[];
  readonly byFunction: readonly ProfileEntry[];
}

const SPECIAL = new Set(["(garbage collector)", "(program)", "(idle)", "(root)"]);

/**
 * Which package a call frame belongs to: the last `node_modules/<pkg>` of its URL (pnpm nests them), the workspace
 * package (`packages/<name>`, `apps/bot`, `bench`), `node:<module>` for Node's own code, or V8's special nodes.
 */
export function packageOf(url: string, functionName: string): string {
  if (SPECIAL.has(functionName)) return functionName;
  if (url === "") return "(native)";
  if (url.startsWith("node:")) {
    // node:internal/deps/undici/undici → node:internal/deps/undici (the bundled fetch), node:internal/streams/… → node:internal/streams
    const [first = "", second, third] = url.slice(5).split("/");
    if (first !== "internal" || second === undefined) return `node:${first}`;
    return second === "deps" && third !== undefined ? `node:internal/deps/${third}` : `node:internal/${second}`;
  }
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const [scope = "", name = ""] = url.slice(modules + 14).split("/");
    return scope.startsWith("@") ? `${scope}/${name}` : scope;
  }
  const workspace = /\/(packages\/[^/]+|apps\/[^/]+|bench)\//.exec(url);
  if (workspace?.[1] !== undefined) {
    const dir = workspace[1];
    return dir === "bench" ? "@chorus/bench" : `@chorus/${dir.split("/")[1]}`;
  }
  return url;
}

function fileOf(url: string): string {
  const path = url.replace(/^file:\/\//, "");
  const modules = path.lastIndexOf("/node_modules/");
  if (modules >= 0) return path.slice(modules + 14);
  const workspace = /\/((?:packages|apps)\/.+|bench\/.+)$/.exec(path);
  return workspace?.[1] ?? path;
}

function top(totals: Map<string, ProfileEntry>, count: number): ProfileEntry[] {
  return [...totals.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, count);
}

/**
 * Reads a `.cpuprofile` and sums self time (sample i takes `timeDeltas[i]`) per package and per function.
 * With `windowUs` only the samples taken inside it count — unless none do (then the whole profile, `windowed: false`).
 * Contract: percentages are of busy time (all samples but `(idle)`); rejects if the file is not a CPU profile.
 */
export async function summariseCpuProfile(
  path: string,
  windowUs?: { readonly start: number; readonly end: number },
  packages = 15,
  functions = 25,
): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(path, "utf8")) as CpuProfile;
  if (!Array.isArray(profile.nodes) || !Array.isArray(profile.samples)) {
    throw new Error(`${path} is not a V8 CPU profile`);
  }
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  // A native function (writev, runMicrotasks…) is charged to the package of the nearest JavaScript frame calling it.
  const nativeCaller = (id: number, functionName: string): string | undefined => {
    if (SPECIAL.has(functionName) || nodes.get(id)?.callFrame.url !== "") return undefined;
    for (let up = parents.get(id); up !== undefined; up = parents.get(up)) {
      const frame = nodes.get(up)?.callFrame;
      if (frame !== undefined && frame.url !== "") return `(native) ← ${packageOf(frame.url, frame.functionName)}`;
    }
    return "(native)";
  };
  const tally = (inside: (at: number) => boolean): Map<number, number> => {
    const self = new Map<number, number>();
    let at = profile.startTime;
    profile.samples.forEach((id, index) => {
      const delta = profile.timeDeltas[index] ?? 0;
      at += delta;
      if (inside(at)) self.set(id, (self.get(id) ?? 0) + delta);
    });
    return self;
  };
  let selfUs =
    windowUs === undefined ? new Map<number, number>() : tally((at) => at >= windowUs.start && at <= windowUs.end);
  const windowed = selfUs.size > 0;
  if (!windowed) selfUs = tally(() => true);
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    totalUs += us;
    if (nodes.get(id)?.callFrame.functionName === "(idle)") idleUs += us;
  }
  const busyMs = Math.max(1e-9, (totalUs - idleUs) / 1000);
  const byPackage = new Map<string, ProfileEntry>();
  const byFunction = new Map<string, ProfileEntry>();
  const add = (
    map: Map<string, ProfileEntry>,
    key: string,
    entry: Omit<ProfileEntry, "selfMs" | "percent">,
    ms: number,
  ) => {
    const selfMs = (map.get(key)?.selfMs ?? 0) + ms;
    map.set(key, { ...entry, selfMs, percent: (selfMs / busyMs) * 100 });
  };
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)?.callFrame;
    if (frame === undefined || frame.functionName === "(idle)") continue;
    const ms = us / 1000;
    const pkg = nativeCaller(id, frame.functionName) ?? packageOf(frame.url, frame.functionName);
    add(byPackage, pkg, { name: pkg, pkg, location: "" }, ms);
    const name = frame.functionName === "" ? "(anonymous)" : frame.functionName;
    const location = frame.url === "" ? "" : `${fileOf(frame.url)}:${frame.lineNumber + 1}`;
    add(byFunction, `${name}|${location}|${pkg}`, { name, pkg, location }, ms);
  }
  return {
    windowed,
    totalMs: totalUs / 1000,
    idleMs: idleUs / 1000,
    byPackage: top(byPackage, packages),
    byFunction: top(byFunction, functions),
  };
}
