/**
 * Callbacks run when the run's signal aborts, so the loop adds one listener per run instead of
 * one per model call and per tool batch. Contract: `watch` returns an idempotent unwatch.
 */
export class AbortHooks {
  private hooks: (() => void)[] = [];

  constructor(private readonly signal: AbortSignal) {}

  /** Runs `hook` on abort (at once if already aborted). A bound property, so it can be passed around. */
  readonly watch = (hook: () => void): (() => void) => {
    if (this.signal.aborted) {
      hook();
      return noop;
    }
    this.hooks.push(hook);
    return () => {
      const i = this.hooks.indexOf(hook);
      if (i >= 0) this.hooks.splice(i, 1);
    };
  };

  /** Runs every hook once (the run's abort listener). */
  readonly fire = (): void => {
    const hooks = this.hooks;
    this.hooks = [];
    for (const hook of hooks) hook();
  };
}

function noop(): void {}
