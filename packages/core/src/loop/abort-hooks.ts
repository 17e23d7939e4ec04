import { NEVER_ABORTED } from "./request-signals.js";

/**
 * Callbacks run when the run's signal aborts, so the loop adds one listener per run instead of
 * one per model call and per tool batch. Contract: `watch` returns an idempotent unwatch.
 */
export class AbortHooks {
  private hooks: (() => void)[] = [];

  constructor(private readonly signal: AbortSignal) {}

  /** Runs `hook` on abort (at once if already aborted). A bound property, so it can be passed around. */
  readonly watch = (hook: () => void): (() => void) => {
    // A signal that can never abort never fires: holding the hook (and an unwatch closure) would be wasted work.
    if (this.signal === NEVER_ABORTED) return noop;
    if (this.signal.aborted) {
      hook();
      return noop;
    }
    this.hooks.push(hook);
    return () => {
      const hooks = this.hooks;
      // Hooks are mostly unwatched last-in first-out (a model call's, then its batch's): pop before searching.
      if (hooks[hooks.length - 1] === hook) hooks.pop();
      else {
        const i = hooks.indexOf(hook);
        if (i >= 0) hooks.splice(i, 1);
      }
    };
  };

  /** Runs every hook once (the run's abort listener). */
  readonly fire = (): void => {
    const hooks = this.hooks;
    this.hooks = [];
    for (const hook of hooks) hook();
  };
}

/**
 * The hooks of every run started without a signal: nothing can abort such a run, so one shared instance serves them
 * all instead of one per run. Being a live instance, it also keeps the class's V8 map alive (see keepShape).
 */
export const NO_ABORT_HOOKS = new AbortHooks(NEVER_ABORTED);

function noop(): void {}
