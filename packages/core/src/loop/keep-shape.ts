/** One idle instance per hot class, held for the life of the process (see `keepShape`). */
const kept: object[] = [];

/**
 * Holds `instance` for the life of the process, so that its class's hidden class (V8 map) stays alive.
 * Why: V8 reaches the map of a class instance only through live instances (map transitions are weak), and optimized
 * code embeds that map weakly. A full GC at a moment no instance lives — between two runs, which leave nothing behind
 * — frees the map and throws away every optimized function that handled the class ("embedded weak objects cleared"
 * in --trace-deopt); the next ~1 000 runs then go through the interpreter again while it is re-optimized. Object
 * literals do not need this (their boilerplate holds their map), nor do objects built whole in one literal; an object
 * whose fields are added one by one, or made by a spread, does.
 * Contract: call once per class at module load, with an instance built by the class's normal constructor path.
 */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
