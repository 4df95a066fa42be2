import {
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO, demoWorkspaceFile } from "@service-api/provisioning";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, runOk, startListening } from "./support/run.js";
import { entryPoints, openTarball, type Tarball, unresolvedImports } from "./support/tarballs.js";

// The release as an outside project gets it: every public package packed (scripts/pack-release.sh,
// as a release is made), installed with plain `npm install` into a folder outside the workspace, on
// this Node (24), and this example's sources built and run there against the installed packages.
const EXAMPLE = fileURLToPath(new URL("..", import.meta.url));
const WORKSPACE = fileURLToPath(new URL("../../..", import.meta.url));
// A fresh npm cache fetches every dependency from the registry: under a minute here, but CI has
// taken over five (a loaded machine, a slow registry). npm is stopped before the hook's end, so a
// hang fails the install test with npm's own output instead of a bare hook timeout.
const INSTALL_TIMEOUT = 900_000;
const NPM_TIMEOUT = 780_000;

const folder = mkdtempSync(join(tmpdir(), "service-api-outside-"));
const packs = join(folder, "packs");
const consumer = join(folder, "consumer");
const tarballs: Tarball[] = [];
let install: { code: number; stderr: string };

/** The workspace's public packages (packages/*, apps/*), by name: what a release must ship. */
function publicPackages(): string[] {
  return ["packages", "apps"].flatMap((parent) =>
    readdirSync(join(WORKSPACE, parent))
      .map((dir) => JSON.parse(readFileSync(join(WORKSPACE, parent, dir, "package.json"), "utf8")))
      .filter((manifest) => manifest.private !== true)
      .map((manifest) => manifest.name as string),
  );
}

/**
 * The consumer: this example's package.json, its dependencies on our packages made the tarballs,
 * and `overrides` naming the same tarballs, so npm never asks a registry for an `@service-api` name
 * (it does otherwise, before taking the tarball beside it: offline, each ask waits out its retries).
 */
function consumerManifest(): object {
  const example = JSON.parse(readFileSync(join(EXAMPLE, "package.json"), "utf8"));
  const ours = Object.fromEntries(tarballs.map(({ manifest, path }) => [manifest.name, `file:${path}`]));
  const dependencies = Object.fromEntries(
    Object.entries(example.dependencies as Record<string, string>).filter(([name]) => !(name in ours)),
  );
  const { "@types/express": types, "@types/node": node, typescript } = example.devDependencies;
  return {
    name: "outside-consumer",
    private: true,
    type: "module",
    scripts: { build: example.scripts.build, start: example.scripts.start },
    dependencies: { ...ours, ...dependencies },
    overrides: ours,
    devDependencies: { "@types/express": types, "@types/node": node, typescript },
  };
}

beforeAll(async () => {
  await runOk("bash", [join(WORKSPACE, "scripts/pack-release.sh"), "--no-build", packs], WORKSPACE);
  for (const file of readdirSync(packs)
    .filter((name) => name.endsWith(".tgz"))
    .sort()) {
    tarballs.push(await openTarball(join(packs, file), join(folder, "unpacked", file)));
  }
  cpSync(join(EXAMPLE, "src"), join(consumer, "src"), { recursive: true });
  cpSync(join(EXAMPLE, "tsconfig.json"), join(consumer, "tsconfig.json"));
  writeFileSync(join(consumer, "package.json"), `${JSON.stringify(consumerManifest(), null, 2)}\n`);
  install = await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline"],
    consumer,
    {},
    NPM_TIMEOUT,
  );
}, INSTALL_TIMEOUT);
// The installed tree is large; on a loaded machine its removal has taken over 30 s, vitest's default.
afterAll(() => rm(folder, { recursive: true, force: true, maxRetries: 3 }), 300_000);

describe("the packed release", () => {
  it("holds every public package, all at one version", () => {
    expect(tarballs.map(({ manifest }) => manifest.name).sort()).toEqual(publicPackages().sort());
    expect(tarballs.map(({ manifest }) => manifest.name)).toEqual(
      expect.arrayContaining(["@service-api/http", "@service-api/cli"]),
    );
    const versions = new Set(tarballs.map(({ manifest }) => manifest.version));
    expect([...versions]).toHaveLength(1);
    expect([...versions][0]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("carries what a registry shows, and no workspace: protocol", () => {
    for (const { manifest, files } of tarballs) {
      expect(manifest.private, manifest.name).not.toBe(true);
      expect(manifest.description, manifest.name).toMatch(/\w{3}/);
      expect(manifest.license, manifest.name).toBe("MIT");
      expect(manifest.repository?.url, manifest.name).toMatch(/^git\+https:/);
      expect(manifest.engines?.node, manifest.name).toMatch(/^>=\d+/);
      expect(manifest.files, manifest.name).toContain("dist");
      expect(files, manifest.name).toContain("README.md");
      expect(files, manifest.name).toContain("LICENSE");
      expect(JSON.stringify(manifest), manifest.name).not.toContain("workspace:");
      expect(
        [...files].filter((file) => file.endsWith(".test.ts")),
        manifest.name,
      ).toEqual([]);
    }
  });

  it("holds every file its exports and bins point at, built", () => {
    for (const { manifest, files } of tarballs) {
      const targets = entryPoints(manifest);
      expect(
        targets.filter((target) => target.startsWith("dist/")),
        manifest.name,
      ).not.toEqual([]);
      expect(
        targets.filter((target) => !files.has(target)),
        manifest.name,
      ).toEqual([]);
    }
    const bins = Object.assign({}, ...tarballs.map(({ manifest }) => manifest.bin ?? {}));
    expect(Object.keys(bins).sort()).toEqual(["service-api", "service-api-server"]);
  });

  it("has an import check that finds an undeclared package and a missing file, not SQL text", () => {
    const code = [
      'import { sql } from "kysely";',
      'import pino from "pino";',
      'export * from "./gone.js";',
      'const text = "select 1 from \\"available\\"";',
    ].join("\n");
    const fake: Tarball = {
      path: "fake.tgz",
      manifest: { name: "@fake/a", version: "1.0.0", dependencies: { kysely: "0.29.9" } },
      files: new Set(["dist/index.js"]),
      read: () => code,
    };
    expect(unresolvedImports(fake)).toEqual([
      "dist/index.js: pino is not a dependency of @fake/a",
      "dist/index.js: ./gone.js is not in the tarball",
    ]);
  });

  it("imports, in its built code and declarations, only its dependencies and its own files", () => {
    expect(tarballs.flatMap(unresolvedImports)).toEqual([]);
  });
});

/** The fields of the API's answers the empty-database path reads. */
interface Answer {
  id?: string;
  batch?: string;
  data?: { indexing_status: string }[];
  records?: { segment: { document: { name: string } } }[];
}

describe("installed outside the workspace", () => {
  const env = { DATABASE_URL: `file:${join(consumer, "kb.sqlite")}` };
  let knowledgeKey: string;
  let appKey: string;

  it("installs with plain npm install, on Node 24, from the tarballs", () => {
    expect(relative(WORKSPACE, consumer)).toMatch(/^\.\./);
    expect(install.code, install.stderr).toBe(0);
    expect(process.version).toMatch(/^v24\./);
    const http = join(consumer, "node_modules/@service-api/http");
    expect(lstatSync(http).isSymbolicLink()).toBe(false);
    expect(existsSync(join(http, "dist/index.js"))).toBe(true);
  });

  it("type-checks the example against the published types, strictly, without skipLibCheck", async () => {
    const tsconfig = JSON.parse(readFileSync(join(consumer, "tsconfig.json"), "utf8"));
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true });
    expect(tsconfig.compilerOptions.skipLibCheck).not.toBe(true);
    expect(tsconfig.compilerOptions.customConditions).toBeUndefined();
    await runOk("npm", ["run", "build"], consumer);
    expect(existsSync(join(consumer, "dist/main.js"))).toBe(true);
  }, 120_000);

  it("imports a file and issues keys with the installed CLI", async () => {
    writeFileSync(join(consumer, "demo.json"), JSON.stringify(demoWorkspaceFile()));
    await runOk("npx", ["service-api", "import", "demo.json"], consumer, env);
    knowledgeKey = (
      await runOk("npx", ["service-api", "keys", "create", "--workspace", DEMO.workspaceId], consumer, env)
    ).trim();
    appKey = (
      await runOk("npx", ["service-api", "keys", "create", "--app", DEMO.chatAppId], consumer, env)
    ).trim();
    expect(knowledgeKey).toMatch(/^ds-\w{20,}$/);
    expect(appKey).toMatch(/^app-\w{20,}$/);
  }, 60_000);

  it("mounts the router in a new Express app: Get Document and a management operation", async () => {
    const host = await startListening("node", ["dist/main.js"], consumer, { ...env, PORT: "0" });
    try {
      const auth = { authorization: `Bearer ${knowledgeKey}` };
      const document = await fetch(
        `${host.url}/v1/datasets/${DEMO.datasetId}/documents/${DEMO.documentId}?metadata=all`,
        { headers: auth },
      );
      expect(document.status).toBe(200);
      expect(await document.json()).toMatchObject({ id: DEMO.documentId, name: "getting-started.md" });
      const tag = await fetch(`${host.url}/v1/datasets/tags`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name: "installed" }),
      });
      expect(tag.status).toBe(200);
      expect(await tag.json()).toMatchObject({ name: "installed", type: "knowledge" });
      const dataset = await fetch(`${host.url}/v1/datasets`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name: "Handbook" }),
      });
      expect(dataset.status).toBe(200);
      expect(await dataset.json()).toMatchObject({ name: "Handbook", document_count: 0 });
      const site = await fetch(`${host.url}/v1/site`, { headers: { authorization: `Bearer ${appKey}` } });
      expect(await site.json()).toMatchObject({ title: "Acme Support" });
      expect(await (await fetch(`${host.url}/hello`)).json()).toEqual({ from: "the host app" });
    } finally {
      expect(await host.stop()).toBe(0);
    }
  }, 60_000);

  it("calls a use case through openServiceApi(), without HTTP", async () => {
    const output = await runOk("node", ["dist/read-document.js", DEMO.datasetId, DEMO.documentId], consumer, {
      ...env,
      SERVICE_API_KEY: knowledgeKey,
    });
    expect(JSON.parse(output)).toMatchObject({
      name: "getting-started.md",
      metadata: { author: "Ada Lovelace", category: "onboarding" },
    });
  }, 60_000);

  it("goes from an empty database to a searchable dataset with the installed CLI and server", async () => {
    const empty = { DATABASE_URL: `file:${join(consumer, "empty.sqlite")}` };
    const workspaceId = (
      await runOk("npx", ["service-api", "workspaces", "create", "--name", "Acme"], consumer, empty)
    ).trim();
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    const key = (
      await runOk("npx", ["service-api", "keys", "create", "--workspace", workspaceId], consumer, empty)
    ).trim();
    const server = await startListening(
      join(consumer, "node_modules/.bin/service-api-server"),
      [],
      consumer,
      {
        ...empty,
        NODE_ENV: "production",
        PORT: "0",
        HOST: "127.0.0.1",
        SHUTDOWN_DRAIN_MS: "0",
      },
    );
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${server.url}/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: (await response.json()) as Answer };
      };
      const dataset = await call("POST", "/datasets", { name: "Handbook", indexing_technique: "economy" });
      expect(dataset.status).toBe(200);
      const datasetId = dataset.body.id as string;
      const created = await call("POST", `/datasets/${datasetId}/document/create-by-text`, {
        name: "faq.txt",
        text: "How do I reset it?\n\nHold the button for ten seconds.",
      });
      expect(created.status).toBe(200);
      const batch = created.body.batch as string;
      let status = "";
      for (let attempt = 0; attempt < 300 && status !== "completed"; attempt += 1) {
        const progress = await call("GET", `/datasets/${datasetId}/documents/${batch}/indexing-status`);
        status = progress.body.data?.[0]?.indexing_status ?? "";
        if (status !== "completed") await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe("completed");
      const found = await call("POST", `/datasets/${datasetId}/retrieve`, { query: "reset the button" });
      expect(found.status).toBe(200);
      expect(found.body.records?.[0]?.segment.document.name).toBe("faq.txt");
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});
