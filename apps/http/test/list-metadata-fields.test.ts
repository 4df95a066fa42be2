import { aDataset, aDocument, aMetadataField } from "@service-api/ports/testing";
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

const list = (datasetId: string, token = world.datasetKey) =>
  call(server.url, "GET", `/v1/datasets/${datasetId}/metadata`, { token });

describe("GET /v1/datasets/{dataset_id}/metadata", () => {
  it("lists custom fields in creation order with their counts, valid against Dify's published schema", async () => {
    const response = await list(world.dataset.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      doc_metadata: [
        { id: world.fields.author.id, name: "author", type: "string", count: 1 },
        { id: world.fields.year.id, name: "year", type: "number", count: 0 },
      ],
      built_in_field_enabled: false,
    });
  });

  it("counts right after values are added to documents", async () => {
    const { repositories } = server.store;
    const dataset = aDataset(world.workspace.id);
    await repositories.datasets.save(dataset);
    const field = aMetadataField(dataset.id, { name: "team" });
    await repositories.metadata.saveField(field);
    const documents = [aDocument(dataset.id), aDocument(dataset.id), aDocument(dataset.id)];
    for (const [index, document] of documents.entries()) {
      await repositories.documents.save(document);
      await repositories.metadata.setValue(document.id, field.id, `team ${index}`);
      expect((await list(dataset.id)).body.doc_metadata).toEqual([
        { id: field.id, name: "team", type: "string", count: index + 1 },
      ]);
    }
  });

  it("adds the five built-in fields, each counting every document, only when enabled", async () => {
    const { repositories } = server.store;
    await repositories.datasets.save({ ...world.dataset, builtInFieldEnabled: true });
    try {
      const response = await list(world.dataset.id);
      expect(response.body.built_in_field_enabled).toBe(true);
      expect(response.body.doc_metadata.slice(2)).toEqual(
        ["document_name", "uploader", "upload_date", "last_update_date", "source"].map((name) => ({
          id: "built-in",
          name,
          type: name.endsWith("date") ? "time" : "string",
          count: 2,
        })),
      );
    } finally {
      await repositories.datasets.save(world.dataset);
    }
  });

  it("answers an empty list for a dataset without fields", async () => {
    const dataset = aDataset(world.workspace.id);
    await server.store.repositories.datasets.save(dataset);
    expect((await list(dataset.id)).body).toEqual({ doc_metadata: [], built_in_field_enabled: false });
  });

  it("answers 404 for an unknown dataset and 403 when API access is off", async () => {
    expect((await list(crypto.randomUUID())).body).toEqual({
      status: 404,
      code: "not_found",
      message: "Dataset not found.",
    });
    const closed = aDataset(world.workspace.id, { enableApi: false });
    await server.store.repositories.datasets.save(closed);
    expect((await list(closed.id)).body).toEqual({
      status: 403,
      code: "forbidden",
      message: "Dataset api access is not enabled.",
    });
  });
});
