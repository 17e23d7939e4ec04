// Preloaded with `node --import` so a bare child process can run the gateway's TypeScript sources:
// Node strips the types itself; this hook maps the `.js` specifiers of NodeNext imports to the `.ts` files on disk,
// and workspace imports (`@chorus/core`, `@chorus/core/testing`) to their sources, as the vitest config does.
import { existsSync } from "node:fs";
import { registerHooks } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const packagesDir = fileURLToPath(new URL("../../../", import.meta.url));

registerHooks({
  resolve(specifier, context, nextResolve) {
    const workspace = /^@chorus\/([a-z0-9-]+)(?:\/([a-z0-9/-]+))?$/.exec(specifier);
    if (workspace !== null) {
      const source = `${packagesDir}${workspace[1]}/src/${workspace[2] === undefined ? "" : `${workspace[2]}/`}index.ts`;
      if (existsSync(source)) return nextResolve(pathToFileURL(source).href, context);
    }
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith("./") || specifier.startsWith("../");
      if (relative && specifier.endsWith(".js")) return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      throw error;
    }
  },
});
