// How a thread is started on a module of this package, from `dist/` or from the TypeScript sources.
//
// From `dist/` (the server: `node apps/http/dist/main.js`) the module is JavaScript next to the pool:
// Node runs it as is, with the process's own flags (a worker inherits `execArgv` by default).
//
// From the sources (vitest runs this package's `.ts` files through Vite, in the test process only:
// a worker thread is plain Node and sees none of it), Node 24 can run the `.ts` module itself, given:
// - `--experimental-transform-types`: the sources use parameter properties (`constructor(readonly
//   reason: string)`), which the default type stripping refuses;
// - `--conditions=@service-api/source`: workspace packages resolve to their `src/index.ts`, as in tests;
// - `typescript-source-hooks.ts` (`--import`): the sources import `./x.ts` as `./x.js` (tsc's
//   NodeNext), a file Node will not find; the hook retries such a specifier with `.ts`;
// - `--disable-warning=ExperimentalWarning`: else each thread warns that it transforms types.
// Building first (a vitest globalSetup pointing the pool at `dist/`) would also work, but would test
// a build of the sources instead of the sources, and the build of every workspace package they import.

const SOURCE_CONDITION = "@service-api/source";

/** The module `name` next to `base` (an `import.meta.url`), in base's language: `.ts` or `.js`. */
export function siblingModule(name: string, base: string): URL {
  const extension = new URL(base).pathname.endsWith(".ts") ? "ts" : "js";
  return new URL(`./${name}.${extension}`, base);
}

/** The `execArgv` a thread running `entry` needs: none of its own for JavaScript. */
export function threadExecArgv(entry: URL): string[] | undefined {
  if (!entry.pathname.endsWith(".ts")) return undefined;
  return [
    "--experimental-transform-types",
    `--conditions=${SOURCE_CONDITION}`,
    "--disable-warning=ExperimentalWarning",
    "--import",
    siblingModule("typescript-source-hooks", import.meta.url).href,
  ];
}
