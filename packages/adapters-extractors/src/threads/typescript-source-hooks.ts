import { registerHooks } from "node:module";

// Preloaded (`--import`) into threads started on this package's TypeScript sources, never from
// `dist/` (see `thread-script.ts`): the sources import `./x.ts` as `./x.js`, as tsc's NodeNext wants,
// and Node resolves a specifier to the file it names. A relative `.js` specifier of a `.ts` module
// that Node cannot find is tried again with `.ts`.
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith("./") || specifier.startsWith("../");
      const fromSource = context.parentURL?.endsWith(".ts") ?? false;
      if (!relative || !fromSource || !specifier.endsWith(".js")) throw error;
      return nextResolve(`${specifier.slice(0, -".js".length)}.ts`, context);
    }
  },
});
