import { type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { describeError } from "@chorus/gateway";
import type { Logger } from "pino";
import type { BotConfig } from "../config/bot-config-schema.js";
import { loadBotConfigFile } from "../config/load-bot-config.js";

/** What a reload did. */
export type ReloadOutcome =
  | { readonly kind: "applied" }
  | { readonly kind: "refused"; readonly error: string }
  | { readonly kind: "failed"; readonly error: string };

/** What the reloader drives. */
export interface ReloadTarget {
  readonly config: BotConfig;
  reload(next: BotConfig): Promise<void>;
}

/** Options of the config reloader. */
export interface ConfigReloaderOptions {
  readonly file: string;
  readonly target: ReloadTarget;
  readonly logger: Logger;
  readonly env?: NodeJS.ProcessEnv;
  /** Changes closer together than this are one reload. Default 300 ms. */
  readonly debounceMs?: number;
}

/**
 * Reloads the configuration when its file changes (or on `reload()`, e.g. from SIGHUP): the file is validated
 * first; a bad file is refused with the error logged and the old config kept.
 * Contract: reloads never overlap; `close` stops watching.
 */
export class ConfigReloader {
  readonly #options: ConfigReloaderOptions;
  #watcher: FSWatcher | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<ReloadOutcome> | undefined;
  #again = false;

  constructor(options: ConfigReloaderOptions) {
    this.#options = options;
  }

  /** Watches the file's folder (editors often replace the file rather than write it). */
  watch(): void {
    if (this.#watcher !== undefined) return;
    const name = basename(this.#options.file);
    this.#watcher = watch(dirname(this.#options.file), (_event, changed) => {
      if (changed !== null && String(changed) !== name) return;
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.reload();
      }, this.#options.debounceMs ?? 300);
    });
    this.#watcher.on("error", (error) =>
      this.#options.logger.warn({ error: describeError(error) }, "config watch failed"),
    );
  }

  /** Validates the file and applies it. A reload asked for while one runs happens right after it. */
  async reload(): Promise<ReloadOutcome> {
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#reloadOnce();
    try {
      let outcome = await this.#running;
      while (this.#again) {
        this.#again = false;
        this.#running = this.#reloadOnce();
        outcome = await this.#running;
      }
      return outcome;
    } finally {
      this.#running = undefined;
    }
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  async #reloadOnce(): Promise<ReloadOutcome> {
    const { logger, file, target } = this.#options;
    let next: BotConfig;
    try {
      next = (await loadBotConfigFile(file, this.#options.env ?? process.env)).config;
    } catch (error) {
      logger.error(
        { file, error: describeError(error) },
        "config change refused: the file is invalid; the old config stays in force",
      );
      return { kind: "refused", error: describeError(error) };
    }
    for (const field of ["store", "dataDir", "logging"] as const) {
      if (JSON.stringify(next[field]) !== JSON.stringify(target.config[field])) {
        logger.warn({ field }, `a change to "${field}" takes effect at the next restart`);
      }
    }
    const current = target.config;
    const effective = { ...next, store: current.store, dataDir: current.dataDir, logging: current.logging };
    if (JSON.stringify(effective) === JSON.stringify(current)) return { kind: "applied" }; // nothing to rebuild
    try {
      await target.reload(effective);
      return { kind: "applied" };
    } catch (error) {
      return { kind: "failed", error: describeError(error) };
    }
  }
}
