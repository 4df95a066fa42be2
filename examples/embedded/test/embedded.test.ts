import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expressMessages, openServiceApi } from "@service-api/http";
import { DEMO, demoWorkspaceFile } from "@service-api/provisioning";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDocumentTitleAndMetadata, tagDataset } from "../src/direct-calls.js";
import { createHostApp } from "../src/host-app.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-embedded-"));
const databaseUrl = `file:${join(directory, "embedded.sqlite")}`;
let knowledgeKey: string;
let appKey: string;

beforeAll(async () => {
  // Provisioning without HTTP: import a file and issue keys, as a host service's setup might.
  const api = await openServiceApi({ databaseUrl });
  await api.importData.execute(demoWorkspaceFile());
  knowledgeKey = (await api.issueApiKey.execute({ workspaceId: DEMO.workspaceId })).token;
  appKey = (await api.issueApiKey.execute({ appId: DEMO.chatAppId })).token;
  await api.close();
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("mounting the router in a host Express app", () => {
  let server: Server;
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const { app, serviceApi } = createHostApp(databaseUrl);
    await serviceApi.ready;
    // Requests and responses built with the app's prototypes (see the README's Embedding).
    server = createServer(expressMessages(app), app).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => serviceApi.close();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await close();
  });

  it("serves the five operations under the host's /v1", async () => {
    const document = await fetch(
      `${base}/v1/datasets/${DEMO.datasetId}/documents/${DEMO.documentId}?metadata=only`,
      {
        headers: { authorization: `Bearer ${knowledgeKey}` },
      },
    );
    expect(document.status).toBe(200);
    expect(await document.json()).toMatchObject({ id: DEMO.documentId });
    const site = await fetch(`${base}/v1/site`, { headers: { authorization: `Bearer ${appKey}` } });
    expect(await site.json()).toMatchObject({ title: "Acme Support" });
  });

  it("answers its own errors in the API's shape", async () => {
    const response = await fetch(`${base}/v1/site`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 401, code: "unauthorized" });
  });

  it("leaves the host's other routes, and unknown paths, to the host", async () => {
    expect(await (await fetch(`${base}/hello`)).json()).toEqual({ from: "the host app" });
    const unknown = await fetch(`${base}/v1/not-an-operation`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("Not found by the host app");
  });
});

describe("calling the use cases directly", () => {
  it("creates and binds a tag through the management use cases, with the count kept at once", async () => {
    const tags = await tagDataset(databaseUrl, knowledgeKey, DEMO.datasetId, "embedded");
    expect(tags).toContainEqual({ name: "embedded", bindingCount: 1 });
  });

  it("authenticates a key and reads a document without HTTP", async () => {
    expect(
      await readDocumentTitleAndMetadata(databaseUrl, knowledgeKey, DEMO.datasetId, DEMO.documentId),
    ).toMatchObject({
      name: "getting-started.md",
      metadata: { author: "Ada Lovelace", category: "onboarding" },
    });
  });

  it("refuses a wrong key as the API would", async () => {
    await expect(
      readDocumentTitleAndMetadata(
        databaseUrl,
        "ds-wrongwrongwrongwrongwrong",
        DEMO.datasetId,
        DEMO.documentId,
      ),
    ).rejects.toMatchObject({ code: "unauthorized" });
  });
});

describe("tuning the embedded SQLite store", () => {
  it.runIf(existsSync("/proc/self/maps"))(
    "maps the file into memory when sqlite.mmapSizeBytes asks",
    async () => {
      const path = join(directory, "embedded.sqlite");
      const isMapped = () =>
        readFileSync("/proc/self/maps", "utf8")
          .split("\n")
          .some((line) => line.endsWith(` ${path}`));
      const api = await openServiceApi({ databaseUrl, sqlite: { mmapSizeBytes: 2 ** 24 } });
      expect(await api.authenticate.forWorkspace(knowledgeKey)).toMatchObject({
        workspaceId: DEMO.workspaceId,
      });
      expect(isMapped()).toBe(true);
      await api.close();
      expect(isMapped()).toBe(false);
    },
  );
});
