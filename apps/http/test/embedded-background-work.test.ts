import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aDocument, aMember, aWorkspace } from "@service-api/ports/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, openServiceApi, type ServiceApi } from "../src/index.js";
import { eventually, sleep } from "./support/load.js";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openOnFile(backgroundWorkers?: number): Promise<ServiceApi> {
  const folder = mkdtempSync(join(tmpdir(), "service-api-background-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const api = await openServiceApi({ databaseUrl: join(folder, "kb.sqlite"), backgroundWorkers });
  cleanups.push(() => api.close());
  return api;
}

/** A workspace with its owner, and a dataset of 40 documents made through the use cases. */
async function aDatasetOfDocuments(api: ServiceApi) {
  const { repositories } = api.store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  await repositories.workspaces.saveMember(aMember(workspace.id, { role: "owner" }));
  const { dataset } = await api.datasets.createDataset.execute({ workspaceId: workspace.id, name: "Docs" });
  const documents = Array.from({ length: 40 }, (_, index) => aDocument(dataset.id, { position: index + 1 }));
  for (const document of documents) await repositories.documents.save(document);
  return { workspace, dataset, documents };
}

describe("an embedding host's background work", () => {
  it("runs workers by default: a dataset deleted through the use cases is purged", async () => {
    const api = await openOnFile();
    const { workspace, dataset, documents } = await aDatasetOfDocuments(api);
    await api.datasets.deleteDataset.execute({ workspaceId: workspace.id, datasetId: dataset.id });
    await eventually(async () => Object.keys(await api.store.repositories.jobs.countByKind()).length === 0);
    expect(
      await api.store.repositories.documents.findInDataset(dataset.id, documents[39]!.id),
    ).toBeUndefined();
  });

  it("runs none with backgroundWorkers: 0, leaving the job for another process", async () => {
    const api = await openOnFile(0);
    const { workspace, dataset, documents } = await aDatasetOfDocuments(api);
    await api.datasets.deleteDataset.execute({ workspaceId: workspace.id, datasetId: dataset.id });
    await sleep(1_500);
    expect(await api.store.repositories.jobs.countByKind()).toEqual({ purge_dataset: 1 });
    expect(await api.store.repositories.documents.findInDataset(dataset.id, documents[0]!.id)).toBeDefined();
  });

  it("refuses a number of workers it cannot run, opening nothing", async () => {
    for (const backgroundWorkers of [-1, 1.5, 65, Number.NaN])
      await expect(openServiceApi({ databaseUrl: ":memory:", backgroundWorkers })).rejects.toBeInstanceOf(
        ConfigError,
      );
  });
});
