import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, sep } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../src/config.js";
import { replayStage } from "./support/build-stage-replay.js";
import {
  argsOf,
  copyOf,
  environmentOf,
  execForm,
  ignoredByDockerignore,
  interpolate,
  ROOT,
  readAtRoot,
  runHealthCheck,
  type Started,
  stagesOf,
  startCommand,
} from "./support/container-recipe.js";
import { createTestDatabaseUrl, TEST_STORE } from "./support/test-database.js";

const stages = stagesOf(readAtRoot("Dockerfile"));
const build = stages[0]!;
const runtime = stages.at(-1)!;
const containerEnvironment = environmentOf(runtime);
const startCommandOfImage = [...argsOf(runtime, "ENTRYPOINT"), ...argsOf(runtime, "CMD")].flatMap(execForm);
const healthCheck = (() => {
  const [args = ""] = argsOf(runtime, "HEALTHCHECK");
  return execForm(/^(?:--\S+\s+)*CMD\s+(.*)$/s.exec(args)?.[1] ?? "null");
})();
/** `node <flags> <script>` from package.json's `serve`, after its build step. */
const serveCommand = (JSON.parse(readAtRoot("package.json")).scripts.serve as string)
  .split("&&")
  .map((part) => part.trim())
  .find((part) => part.startsWith("node "))!
  .split(/\s+/);
const nodeMajor = readAtRoot(".nvmrc").trim().split(".")[0];
/** The build stage's `pnpm … deploy <target>`, split into words. */
const deployCommand = argsOf(build, "RUN")
  .flatMap((args) => args.split("&&").map((command) => command.trim()))
  .find((command) => /^pnpm\b.*\bdeploy\b/.test(command))
  ?.split(/\s+/);

describe.runIf(TEST_STORE === "sqlite")("the Dockerfile", () => {
  it("builds and runs on a slim image of the Node major that .nvmrc names", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.image).toBe(`node:${nodeMajor}-bookworm-slim`);
  });

  it("runs the node invocation of package.json's serve script, flags and script alike", () => {
    expect(serveCommand).toEqual([
      "node",
      "--max-semi-space-size=4",
      "--heap-growing-percent=50",
      expect.any(String),
    ]);
    expect(startCommandOfImage).toEqual(serveCommand);
  });

  it("starts a script that the final stage copies from the build stage's deploy", () => {
    expect(deployCommand).toEqual(expect.arrayContaining(["--filter=@service-api/http", "--prod"]));
    const target = deployCommand!.at(-1)!;
    const copied = argsOf(runtime, "COPY")
      .map(copyOf)
      .find(({ flags }) => flags.from === build.name)!;
    expect(copied.sources).toEqual([target]);
    const [workdir = "/"] = argsOf(runtime, "WORKDIR").slice(-1);
    const script = serveCommand.at(-1)!;
    expect(posix.resolve(workdir, copied.destination, posix.relative("apps/http", script))).toBe(
      posix.resolve(workdir, script),
    );
  });

  it("runs as a user other than root", () => {
    const user = argsOf(runtime, "USER").at(-1);
    expect(user).toBeDefined();
    expect(["root", "0"]).not.toContain(user!.split(":")[0]);
  });

  it("exposes the server's default port, keeps its data on a volume and runs in production", () => {
    expect(argsOf(runtime, "EXPOSE")).toEqual([String(loadConfig({}).port)]);
    expect(containerEnvironment.PORT).toBe(String(loadConfig({}).port));
    expect(argsOf(runtime, "VOLUME")).toEqual(["/data"]);
    expect(containerEnvironment).toMatchObject({
      NODE_ENV: "production",
      DATABASE_URL: "file:/data/service-api.sqlite",
    });
    expect(containerEnvironment).not.toHaveProperty("FILES_DIR");
  });

  it("checks its health with node itself against /healthz", () => {
    expect(healthCheck[0]).toBe("node");
    expect(healthCheck.join(" ")).toContain("/healthz");
  });

  it("copies only paths that exist in the repository and that .dockerignore lets in", () => {
    const dockerignore = readAtRoot(".dockerignore");
    const sources = stages.flatMap((stage) =>
      argsOf(stage, "COPY")
        .map(copyOf)
        .filter(({ flags }) => flags.from === undefined)
        .flatMap(({ sources }) => sources),
    );
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(join(ROOT, source)), source).toBe(true);
      if (source !== ".") expect(ignoredByDockerignore(dockerignore, source), source).toBe(false);
    }
  });

  it("leaves what is installed, built or stored here out of the build context", () => {
    const dockerignore = readAtRoot(".dockerignore");
    const left = [".git", "node_modules", "apps/http/node_modules", ".toolchain", "apps/http/dist"];
    for (const path of [...left, "data", "bench/.data", ".turbo", ".env"])
      expect(ignoredByDockerignore(dockerignore, path), path).toBe(true);
    for (const path of ["package.json", "pnpm-lock.yaml", "apps/http/src/main.ts", "packages/domain/src"])
      expect(ignoredByDockerignore(dockerignore, path), path).toBe(false);
  });

  it("passes hadolint, when hadolint is installed", (context) => {
    const version = spawnSync("hadolint", ["--version"], { encoding: "utf8" });
    context.skip(version.error !== undefined, "hadolint is not installed (Debian: apt-get install hadolint)");
    const lint = spawnSync("hadolint", ["Dockerfile"], { cwd: ROOT, encoding: "utf8" });
    expect(lint.stdout + lint.stderr).toBe("");
    expect(lint.status).toBe(0);
  });
});

const composeFile = parse(readAtRoot("compose.yaml"));
type Service = {
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition?: string }>;
  healthcheck?: { test?: string[] };
  volumes?: string[];
  ports?: string[];
};
const services: Record<string, Service> = composeFile.services;
/** The server's environment as compose gives it, interpolated from `environment` (by default, nothing set). */
const serverEnvironment = (environment: Record<string, string> = {}) =>
  Object.fromEntries(
    Object.entries(services.server?.environment ?? {}).map(([key, value]) => [
      key,
      interpolate(String(value), environment),
    ]),
  );

describe.runIf(TEST_STORE === "sqlite")("compose.yaml", () => {
  it("runs the server on PostgreSQL 15 and Redis 7", () => {
    expect(Object.keys(services).sort()).toEqual(["postgres", "redis", "server"]);
    expect(services.postgres?.image).toMatch(/^postgres:15(?:$|[.-])/);
    expect(services.redis?.image).toMatch(/^redis:7(?:$|[.-])/);
  });

  it("points the server's DATABASE_URL at the postgres service, with its user, password and database", () => {
    const url = new URL(serverEnvironment().DATABASE_URL!);
    const postgres = services.postgres?.environment ?? {};
    expect(url.protocol).toBe("postgres:");
    expect(url.hostname).toBe("postgres");
    expect(url.port).toBe("5432");
    expect(url.username).toBe(postgres.POSTGRES_USER);
    expect(decodeURIComponent(url.password)).toBe(interpolate(postgres.POSTGRES_PASSWORD!, {}));
    expect(url.pathname).toBe(`/${postgres.POSTGRES_DB}`);
    const chosen = new URL(serverEnvironment({ POSTGRES_PASSWORD: "chosen" }).DATABASE_URL!);
    expect(chosen.password).toBe(interpolate(postgres.POSTGRES_PASSWORD!, { POSTGRES_PASSWORD: "chosen" }));
  });

  it("points the server's REDIS_URL at the redis service", () => {
    const url = new URL(serverEnvironment().REDIS_URL!);
    expect(url.protocol).toBe("redis:");
    expect(url.hostname).toBe("redis");
  });

  it("starts the server once PostgreSQL and Redis are healthy, each with a health check", () => {
    expect(services.server?.depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      redis: { condition: "service_healthy" },
    });
    for (const name of ["postgres", "redis"])
      expect(services[name]?.healthcheck?.test?.length).toBeGreaterThan(1);
    expect(services.server?.healthcheck?.test).toEqual(["CMD", ...healthCheck]);
  });

  it("keeps PostgreSQL's data in a named volume", () => {
    const [volume = ""] = services.postgres?.volumes ?? [];
    const [name = "", mountedAt] = volume.split(":");
    expect(mountedAt).toBe("/var/lib/postgresql/data");
    expect(Object.keys(composeFile.volumes ?? {})).toContain(name);
  });

  it("gives the server an environment it starts with, WORKERS and INDEXING_CONCURRENCY shown", () => {
    expect(Object.keys(serverEnvironment())).toEqual(
      expect.arrayContaining(["WORKERS", "INDEXING_CONCURRENCY"]),
    );
    const config = loadConfig({ ...containerEnvironment, ...serverEnvironment() });
    expect(config.databaseUrl).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
    expect(config.rateLimits.redisUrl).toBe("redis://redis:6379");
    expect(config.secretKey).toBeUndefined();
    expect(config.demo).toBe(false);
    expect(loadConfig(serverEnvironment({ SECRET_KEY: "from-the-environment" })).secretKey).toBe(
      "from-the-environment",
    );
    expect(services.server?.ports).toContain(`${config.port}:${argsOf(runtime, "EXPOSE")[0]}`);
  });
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The image's start command, run here with the image's environment over `databaseUrl`. */
async function startAsTheImageDoes(cwd: string, databaseUrl: string): Promise<Started> {
  const environment = {
    PATH: process.env.PATH ?? "",
    ...containerEnvironment,
    DATABASE_URL: databaseUrl,
    PORT: "0",
    HOST: "127.0.0.1",
    SHUTDOWN_DRAIN_MS: "0",
  };
  const started = await startCommand(startCommandOfImage, cwd, environment);
  cleanups.push(() => started.child.kill("SIGKILL"));
  return started;
}

describe("the image's start command, run from the built apps/http/dist", () => {
  it("answers /healthz and /readyz, passes the health check, and stops on SIGTERM", async () => {
    if (!existsSync(join(ROOT, serveCommand.at(-1)!)))
      throw new Error("apps/http/dist is missing: build first (turbo's test task does).");
    const database = await createTestDatabaseUrl();
    cleanups.push(() => database.drop());
    const server = await startAsTheImageDoes(ROOT, database.databaseUrl);
    const port = new URL(server.url).port;

    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: "ok" });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(await runHealthCheck(healthCheck, { ...containerEnvironment, PORT: port })).toBe(0);

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(await runHealthCheck(healthCheck, { ...containerEnvironment, PORT: port })).toBe(1);
  });
});

describe.runIf(TEST_STORE === "sqlite")("the build stage's deploy, replayed on this workspace", () => {
  it("yields a folder that serves on its own, from production dependencies only", async (context) => {
    context.skip(spawnSync("pnpm", ["--version"]).error !== undefined, "pnpm is not on PATH");
    // The runtime stage's layout in a temp folder: its WORKDIR, the deployed server where it copies it.
    const app = realpathSync(mkdtempSync(join(tmpdir(), "service-api-image-")));
    cleanups.push(() => rmSync(app, { recursive: true, force: true }));
    const [workdir = "/"] = argsOf(runtime, "WORKDIR").slice(-1);
    const { destination } = argsOf(runtime, "COPY")
      .map(copyOf)
      .find(({ flags }) => flags.from === build.name)!;
    const target = join(app, posix.relative(workdir, posix.resolve(workdir, destination)));
    const [, ...deploy] = deployCommand!;
    const deployed = spawnSync("pnpm", [...deploy.slice(0, -1), target], { cwd: ROOT, encoding: "utf8" });
    expect(deployed.status, deployed.stdout + deployed.stderr).toBe(0);

    expect(existsSync(join(target, "node_modules", "@service-api", "stores", "dist", "index.js"))).toBe(true);
    expect(existsSync(join(target, "node_modules", "vitest"))).toBe(false);
    const links = readdirSync(target, { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isSymbolicLink(),
    );
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const path = join(link.parentPath, link.name);
      expect(existsSync(path) && realpathSync(path).startsWith(`${target}${sep}`), path).toBe(true);
    }

    // SQLite, as the image defaults to: better-sqlite3's binary loads with no build script run.
    const server = await startAsTheImageDoes(app, `file:${join(app, "data", "service-api.sqlite")}`);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${server.url}/docs`)).status).toBe(200);
    const port = new URL(server.url).port;
    expect(await runHealthCheck(healthCheck, { ...containerEnvironment, PORT: port })).toBe(0);
  }, 180_000);
});

// Minutes and a few hundred MB from the npm registry: run on demand, with REPLAY_BUILD_STAGE=1.
describe.runIf(TEST_STORE === "sqlite")("the whole image, replayed without Docker", () => {
  it("builds from a fresh store and a copy of the context, then starts and passes its health check", async (context) => {
    context.skip(
      process.env.REPLAY_BUILD_STAGE !== "1",
      "set REPLAY_BUILD_STAGE=1 to replay the image's build",
    );
    const sandbox = realpathSync(mkdtempSync(join(tmpdir(), "service-api-replay-")));
    cleanups.push(() => rmSync(sandbox, { recursive: true, force: true }));
    const buildRoot = join(sandbox, "build");
    const runtimeRoot = join(sandbox, "runtime");
    replayStage(build, buildRoot);
    // The runtime stage's RUN makes /data the node user's, a user this machine may not have.
    const { workdir } = replayStage(runtime, runtimeRoot, { from: { [build.name!]: buildRoot }, run: false });
    mkdirSync(join(runtimeRoot, "data"));

    const databaseUrl = containerEnvironment.DATABASE_URL!.replace(/^file:\//, `file:${runtimeRoot}/`);
    const server = await startAsTheImageDoes(workdir, databaseUrl);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(existsSync(join(runtimeRoot, "data", "service-api.sqlite"))).toBe(true);
    const port = new URL(server.url).port;
    expect(await runHealthCheck(healthCheck, { ...containerEnvironment, PORT: port })).toBe(0);
  }, 900_000);
});
