import type { Document } from "@service-api/domain";
import { aDataset, aDocument, aMetadataField, aTag } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

/** More documents than SQLite lets one statement hold a condition each for (depth 1,000). */
const MANY = 1_200;
/** More ids than a statement takes parameters (SQLite 32,766; PostgreSQL 65,535), in under 1 MB. */
const unknownIds = Array.from({ length: 70_000 }, (_, index) => `x${index}`);

async function datasetOf(count: number, over: (index: number) => Partial<Document> = () => ({})) {
  const { datasets, documents } = server.store.repositories;
  const dataset = aDataset(world.workspace.id);
  await datasets.save(dataset);
  const docs = Array.from({ length: count }, (_, index) =>
    aDocument(dataset.id, { position: index + 1, createdBy: world.member.id, ...over(index) }),
  );
  for (const document of docs) await documents.save(document);
  return { dataset, docs };
}

const send = (method: string, path: string, body: unknown) =>
  call(server.url, method, path, { token: world.datasetKey, body });

describe("batches of any size", () => {
  it("updates the status of over a thousand documents named among 70,000 ids", async () => {
    const { dataset, docs } = await datasetOf(MANY, (index) => (index % 2 === 0 ? {} : { enabled: false }));
    const response = await send("PATCH", `/v1/datasets/${dataset.id}/documents/status/enable`, {
      document_ids: [...unknownIds, ...docs.map(({ id }) => id)],
    });
    expect(response.status).toBe(200);
    const after = await server.store.repositories.documents.findManyInDataset(
      dataset.id,
      docs.map(({ id }) => id),
    );
    expect(after.filter((document) => document.enabled)).toHaveLength(MANY);
    const overview = await send("GET", `/v1/datasets/${dataset.id}`, undefined);
    expect(overview.body.total_available_documents).toBe(MANY);
  });

  it("sets the metadata of over a thousand documents in one request", async () => {
    const { dataset, docs } = await datasetOf(MANY);
    const field = aMetadataField(dataset.id, { name: "label" });
    await server.store.repositories.metadata.saveField(field);
    const response = await send("POST", `/v1/datasets/${dataset.id}/documents/metadata`, {
      operation_data: docs.map(({ id }, index) => ({
        document_id: id,
        metadata_list: [{ id: field.id, name: "label", value: `v${index}` }],
      })),
    });
    expect(response.status).toBe(200);
    const fields = await send("GET", `/v1/datasets/${dataset.id}/metadata`, undefined);
    expect(fields.body.doc_metadata).toEqual([expect.objectContaining({ id: field.id, count: MANY })]);
  });

  it("binds tags named among 70,000 ids", async () => {
    const dataset = aDataset(world.workspace.id);
    await server.store.repositories.datasets.save(dataset);
    const tags = Array.from({ length: 80 }, (_, index) =>
      aTag(world.workspace.id, { name: `batch ${index}` }),
    );
    for (const tag of tags) await server.store.repositories.tags.save(tag);
    const response = await send("POST", "/v1/datasets/tags/binding", {
      tag_ids: [...unknownIds, ...tags.map(({ id }) => id)],
      target_id: dataset.id,
    });
    expect(response.status).toBe(204);
    expect((await server.store.repositories.tags.boundTagIds(dataset.id)).sort()).toEqual(
      tags.map(({ id }) => id).sort(),
    );
  });
});
