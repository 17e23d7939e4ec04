/** A matched REST route: its name and the path parameters. */
export interface RouteMatch<H> {
  readonly name: string;
  readonly handler: H;
  readonly params: Record<string, string>;
}

interface Route<H> {
  readonly verb: string;
  readonly parts: readonly string[];
  readonly name: string;
  readonly handler: H;
}

/**
 * Tiny router for `VERB /a/:b/c` patterns.
 * Contract: literal segments must match exactly; `:name` captures one decoded segment.
 */
export class RestRouter<H> {
  readonly #routes = new Map<string, Route<H>[]>();

  add(pattern: string, name: string, handler: H): this {
    const [verb = "", path = ""] = pattern.split(" ");
    const parts = path.split("/").filter(Boolean);
    const key = `${verb} ${parts.length}`;
    const list = this.#routes.get(key) ?? [];
    list.push({ verb, parts, name, handler });
    this.#routes.set(key, list);
    return this;
  }

  match(verb: string, segments: readonly string[]): RouteMatch<H> | undefined {
    for (const route of this.#routes.get(`${verb} ${segments.length}`) ?? []) {
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < route.parts.length; i++) {
        const part = route.parts[i] as string;
        const segment = segments[i] as string;
        if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(segment);
        else if (part !== segment) {
          ok = false;
          break;
        }
      }
      if (ok) return { name: route.name, handler: route.handler, params };
    }
    return undefined;
  }
}
