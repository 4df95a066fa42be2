import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { basename, dirname, join, posix } from "node:path";
import {
  argsOf,
  copyOf,
  environmentOf,
  ignoredByDockerignore,
  ROOT,
  readAtRoot,
  type Stage,
} from "./container-recipe.js";

/** The build context as Docker would send it: the repository's files that .dockerignore lets in. */
function contextFiles(): string[] {
  const dockerignore = readAtRoot(".dockerignore");
  return execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter(
      (path) => path !== "" && existsSync(join(ROOT, path)) && !ignoredByDockerignore(dockerignore, path),
    );
}

/** The machine's TLS trust and proxy settings, which a build here needs as much as one in Docker. */
const trustAndProxy = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$/.test(name) || /^(https?|no)_proxy$/i.test(name),
    ),
  );

/**
 * Replays a Dockerfile stage without Docker: its WORKDIR, ENV and COPY instructions, and its RUN
 * commands through `sh -c`, in a filesystem of its own at `root` (a path `/x` of the stage is
 * `root/x`, in RUN commands too). HOME starts empty, so npm's cache and pnpm's store do, as in a
 * fresh image; PATH is this Node and what the stage installs globally. `from` gives the `root` of
 * each stage a `COPY --from` names. With `run: false` RUN commands are skipped (they may need the
 * image's users).
 */
export function replayStage(
  stage: Stage,
  root: string,
  { from = {} as Record<string, string>, run = true } = {},
) {
  const globalPrefix = join(root, "usr", "local");
  const environment = {
    ...trustAndProxy(),
    HOME: join(root, "root"),
    PATH: [join(globalPrefix, "bin"), dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
    npm_config_prefix: globalPrefix,
    ...environmentOf(stage),
  };
  const files = contextFiles();
  let workdir = "/";
  const inRoot = (path: string) => join(root, posix.resolve(workdir, path));
  mkdirSync(environment.HOME, { recursive: true });
  for (const { keyword, args } of stage.instructions) {
    if (keyword === "WORKDIR") {
      workdir = posix.resolve(workdir, args);
      mkdirSync(inRoot("."), { recursive: true });
    } else if (keyword === "COPY") {
      const { flags, sources, destination } = copyOf(args);
      for (const source of sources) {
        if (flags.from !== undefined) {
          const stageRoot = from[flags.from];
          if (!stageRoot) throw new Error(`no replayed stage ${flags.from}`);
          cpSync(join(stageRoot, source), inRoot(destination), { recursive: true, verbatimSymlinks: true });
          continue;
        }
        const within =
          source === "." ? files : files.filter((file) => file === source || file.startsWith(`${source}/`));
        if (within.length === 0) throw new Error(`COPY ${source}: not in the build context`);
        for (const file of within) {
          const relative =
            source === "." || file !== source
              ? posix.relative(source === "." ? "" : source, file)
              : basename(file);
          const target = join(inRoot(destination), relative);
          mkdirSync(dirname(target), { recursive: true });
          cpSync(join(ROOT, file), target, { verbatimSymlinks: true });
        }
      }
    } else if (keyword === "RUN" && run) {
      const command = args.replace(/(^|\s)\//g, `$1${root}/`);
      const result = spawnSync("sh", ["-c", command], {
        cwd: inRoot("."),
        env: environment,
        encoding: "utf8",
      });
      if (result.status !== 0)
        throw new Error(`RUN ${args} exited with ${result.status}:\n${result.stdout}${result.stderr}`);
    }
  }
  return { workdir: inRoot("."), environment: environmentOf(stage), ran: argsOf(stage, "RUN").length };
}
