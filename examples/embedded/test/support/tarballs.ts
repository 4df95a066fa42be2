import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, posix } from "node:path";
import { runOk } from "./run.js";

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  license?: string;
  repository?: { url?: string; directory?: string };
  engines?: { node?: string };
  files?: string[];
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export interface Tarball {
  path: string;
  manifest: Manifest;
  /** Every file in the tarball, relative to its package root (`dist/index.js`). */
  files: Set<string>;
  /** Reads a file of the tarball (relative to its package root). */
  read(file: string): string;
}

/** Unpacks a tarball into `into` and lists what it holds. */
export async function openTarball(path: string, into: string): Promise<Tarball> {
  mkdirSync(into, { recursive: true });
  await runOk("tar", ["-xzf", path, "-C", into], into);
  const root = join(into, "package");
  const files = new Set(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => posix.relative(root, join(entry.parentPath, entry.name))),
  );
  const read = (file: string) => readFileSync(join(root, file), "utf8");
  return { path, manifest: JSON.parse(read("package.json")) as Manifest, files, read };
}

/** The files a manifest's `exports`, `bin`, `main` and `types` point at, as package-relative paths. */
export function entryPoints(manifest: Manifest): string[] {
  const targets: string[] = [];
  for (const value of Object.values(manifest.exports ?? {})) {
    if (typeof value === "string") targets.push(value);
    else targets.push(...Object.values(value));
  }
  targets.push(...Object.values(manifest.bin ?? {}));
  return targets.map((target) => posix.normalize(target));
}

// Statements as tsc emits them (`import … from "x"`, `export … from "x"`, `import "x"`) and
// dynamic or type imports (`import("x")`), not text that merely says "from" in a string.
const SPECIFIERS = [
  /^(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/gm,
  /^import\s*["']([^"']+)["']/gm,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
];

/** The module specifiers a JavaScript or declaration file imports, statically or dynamically. */
export function importsOf(source: string): string[] {
  return SPECIFIERS.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] as string));
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
}

const BUILTINS = new Set(builtinModules);

/**
 * What a tarball's built code imports that an install would not provide: a package not among its
 * dependencies (for a declaration file, neither the package nor its `@types/`), or a relative file
 * not in the tarball. One line per problem.
 */
export function unresolvedImports(tarball: Tarball): string[] {
  const { manifest, files } = tarball;
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const problems: string[] = [];
  for (const file of files) {
    const isDeclaration = file.endsWith(".d.ts");
    if (!file.startsWith("dist/") || !(isDeclaration || file.endsWith(".js"))) continue;
    for (const specifier of importsOf(tarball.read(file))) {
      if (specifier.startsWith(".")) {
        const target = posix.join(dirname(file), specifier);
        const wanted = isDeclaration ? target.replace(/\.js$/, ".d.ts") : target;
        if (!files.has(wanted)) problems.push(`${file}: ${specifier} is not in the tarball`);
        continue;
      }
      if (specifier.startsWith("node:") || BUILTINS.has(specifier)) continue;
      const name = packageOf(specifier);
      const typesName = `@types/${name.replace(/^@/, "").replace("/", "__")}`;
      if (declared.has(name) || (isDeclaration && declared.has(typesName))) continue;
      problems.push(`${file}: ${specifier} is not a dependency of ${manifest.name}`);
    }
  }
  return problems;
}
