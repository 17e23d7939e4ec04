import type { Model } from "@chorus/core";

/** Where model ids are looked up (`ModelRegistry` from @chorus/providers fits). */
export interface ModelCatalog {
  /** Contract: undefined for an unknown id. */
  find(id: string): Model | undefined;
  list(): readonly Model[];
}
