import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Dataset, Document } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { aDataset, aDocument, aMetadataField, aTag } from "@service-api/ports/testing";
import { openStore } from "@service-api/stores";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call } from "./support/http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { type ServerProcess, spawnServer } from "./support/server-process.js";
import { createTestDatabaseUrl, TEST_STORE, type TestDatabaseUrl } from "./support/test-database.js";

/**
 * Two server processes on one PostgreSQL database, as behind a load balancer, racing on the
 * management writes: names stay unique by the database, value sets land whole, counters stay exact
 * (management-operations §0.5, §0.7).
 */
describe.runIf(TEST_STORE === "postgres")(
  "management writes raced through two instances on one database",
  () => {
    let database: TestDatabaseUrl;
    let directory: string;
    let store: Store;
    let world: SeededWorkspace;
    let first: ServerProcess;
    let second: ServerProcess;

    beforeAll(async () => {
      database = await createTestDatabaseUrl();
      directory = mkdtempSync(join(tmpdir(), "service-api-two-management-"));
      // Opening the store migrates the database; both servers then start on it at once.
      store = await openStore({ databaseUrl: database.databaseUrl, pool: { max: 2 } });
      world = await seedWorkspace(store.repositories);
      [first, second] = await Promise.all([
        spawnServer(directory, { DATABASE_URL: database.databaseUrl }),
        spawnServer(directory, { DATABASE_URL: database.databaseUrl }),
      ]);
    });
    afterAll(async () => {
      for (const server of [first, second]) {
        server?.child.kill("SIGTERM");
        await server?.exited;
      }
      await store?.close();
      await database?.drop();
      if (directory) rmSync(directory, { recursive: true, force: true });
    });

    /** Request `index` goes to one instance, the next to the other, as a round-robin balancer. */
    const send = (index: number, method: string, path: string, body?: unknown) =>
      call(index % 2 ? first.url : second.url, method, path, { token: world.datasetKey, body });
    /** Sends every request at once, alternating between the instances. */
    const race = (requests: readonly { method: string; path: string; body?: object }[]) =>
      Promise.all(requests.map(({ method, path, body }, index) => send(index, method, path, body)));
    const statuses = (responses: readonly ApiResponse[]) => responses.map((response) => response.status);

    async function newDataset(): Promise<Dataset> {
      const dataset = aDataset(world.workspace.id, { name: `race ${crypto.randomUUID()}` });
      await store.repositories.datasets.save(dataset);
      return dataset;
    }

    describe("knowledge tags", () => {
      it("creates one tag of a name created twenty times at once through both; the rest answer the duplicate 400", async () => {
        const names = ["race-tag-α", "race-tag-β", "race-tag-γ"];
        const requests = names.flatMap((name) =>
          Array.from({ length: 20 }, () => ({ method: "POST", path: "/v1/datasets/tags", body: { name } })),
        );
        const responses = await race(requests);
        const listed = await send(0, "GET", "/v1/datasets/tags");
        expect(listed.status).toBe(200);
        const stored = await store.repositories.tags.listCounted(world.workspace.id, "knowledge");
        for (const name of names) {
          const own = responses.filter((_, index) => requests[index]!.body.name === name);
          const created = own.filter((response) => response.status === 200);
          expect(created).toHaveLength(1);
          expect(created[0]!.body).toEqual({
            id: expect.any(String),
            name,
            type: "knowledge",
            binding_count: "0",
          });
          for (const refused of own.filter((response) => response.status !== 200)) {
            expect(refused.status).toBe(400);
            expect(refused.body).toEqual({
              status: 400,
              code: "invalid_param",
              message: "Tag name already exists",
            });
          }
          const listedOfName = listed.body.filter((tag: { name: string }) => tag.name === name);
          expect(listedOfName).toEqual([
            { id: created[0]!.body.id, name, type: "knowledge", binding_count: "0" },
          ]);
          expect(stored.filter((tag) => tag.name === name).map((tag) => tag.id)).toEqual([
            created[0]!.body.id,
          ]);
        }
      });

      it("renames only one of ten tags renamed to the same name at once through both; the names stay unique", async () => {
        const tags = Array.from({ length: 10 }, (_, index) =>
          aTag(world.workspace.id, { name: `rename-me-${index}` }),
        );
        for (const tag of tags) await store.repositories.tags.save(tag);
        const responses = await race(
          tags.map((tag) => ({
            method: "PATCH",
            path: "/v1/datasets/tags",
            body: { tag_id: tag.id, name: "renamed-tag" },
          })),
        );
        const renamed = responses.filter((response) => response.status === 200);
        expect(renamed).toHaveLength(1);
        const winner = tags.find((tag) => tag.id === renamed[0]!.body.id)!;
        expect(winner).toBeDefined();
        expect(renamed[0]!.body).toEqual({
          id: winner.id,
          name: "renamed-tag",
          type: "knowledge",
          binding_count: "0",
        });
        for (const refused of responses.filter((response) => response.status !== 200)) {
          expect(refused.status).toBe(400);
          expect(refused.body).toEqual({
            status: 400,
            code: "invalid_param",
            message: "Tag name already exists",
          });
        }
        const listed = (await send(1, "GET", "/v1/datasets/tags")).body as { id: string; name: string }[];
        expect(listed.filter((tag) => tag.name === "renamed-tag").map((tag) => tag.id)).toEqual([winner.id]);
        const stored = await store.repositories.tags.listCounted(world.workspace.id, "knowledge");
        const storedNames = stored.map((tag) => tag.name);
        expect(new Set(storedNames).size).toBe(storedNames.length);
        for (const tag of tags.filter((tag) => tag !== winner)) {
          expect(stored.find((candidate) => candidate.id === tag.id)?.name).toBe(tag.name);
        }
      });
    });

    describe("metadata fields", () => {
      it("creates one field of a name created twenty times at once through both; the rest answer the duplicate 400", async () => {
        const dataset = await newDataset();
        const names = ["race_field", "race_field_2"];
        const requests = names.flatMap((name) =>
          Array.from({ length: 20 }, () => ({
            method: "POST",
            path: `/v1/datasets/${dataset.id}/metadata`,
            body: { type: "string", name },
          })),
        );
        const responses = await race(requests);
        const listed = await send(0, "GET", `/v1/datasets/${dataset.id}/metadata`);
        expect(listed.status).toBe(200);
        const stored = await store.repositories.metadata.listFields(dataset.id);
        for (const name of names) {
          const own = responses.filter((_, index) => requests[index]!.body.name === name);
          const created = own.filter((response) => response.status === 201);
          expect(created).toHaveLength(1);
          expect(created[0]!.body).toEqual({ id: expect.any(String), type: "string", name });
          for (const refused of own.filter((response) => response.status !== 201)) {
            expect(refused.status).toBe(400);
            expect(refused.body).toEqual({
              status: 400,
              code: "invalid_param",
              message: "Metadata name already exists.",
            });
          }
          expect(listed.body.doc_metadata.filter((field: { name: string }) => field.name === name)).toEqual([
            { id: created[0]!.body.id, name, type: "string", count: 0 },
          ]);
          expect(stored.filter((field) => field.name === name).map((field) => field.id)).toEqual([
            created[0]!.body.id,
          ]);
        }
        expect(stored).toHaveLength(names.length);
      });

      it("renames only one of ten fields renamed to the same name at once through both; each keeps its values", async () => {
        const dataset = await newDataset();
        const document = aDocument(dataset.id);
        await store.repositories.documents.save(document);
        const fields = Array.from({ length: 10 }, (_, index) =>
          aMetadataField(dataset.id, { name: `field_${index}`, createdAt: 1_700_000_000 + index }),
        );
        for (const field of fields) {
          await store.repositories.metadata.saveField(field);
          await store.repositories.metadata.setValue(document.id, field.id, `value of ${field.name}`);
        }
        const responses = await race(
          fields.map((field) => ({
            method: "PATCH",
            path: `/v1/datasets/${dataset.id}/metadata/${field.id}`,
            body: { name: "renamed_field" },
          })),
        );
        const renamed = responses.filter((response) => response.status === 200);
        expect(renamed).toHaveLength(1);
        const winner = fields.find((field) => field.id === renamed[0]!.body.id)!;
        expect(winner).toBeDefined();
        expect(renamed[0]!.body).toEqual({ id: winner.id, type: "string", name: "renamed_field" });
        for (const refused of responses.filter((response) => response.status !== 200)) {
          expect(refused.status).toBe(400);
          expect(refused.body).toEqual({
            status: 400,
            code: "invalid_param",
            message: "Metadata name already exists.",
          });
        }
        const expected = fields.map((field) => ({
          id: field.id,
          name: field === winner ? "renamed_field" : field.name,
          type: "string",
          count: 1,
        }));
        expect((await send(1, "GET", `/v1/datasets/${dataset.id}/metadata`)).body.doc_metadata).toEqual(
          expected,
        );
        const stored = await store.repositories.metadata.listFields(dataset.id);
        expect(stored.map(({ id, name }) => ({ id, name }))).toEqual(
          expected.map(({ id, name }) => ({ id, name })),
        );
        expect(await store.repositories.metadata.valuesOf(document.id)).toEqual(
          fields.map((field) => ({
            id: field.id,
            name: field === winner ? "renamed_field" : field.name,
            type: "string",
            value: `value of ${field.name}`,
          })),
        );
      });
    });

    it("leaves one request's whole set of values when twenty replace a document's values at once through both", async () => {
      const dataset = await newDataset();
      const [target, neighbour] = [
        aDocument(dataset.id, { position: 1 }),
        aDocument(dataset.id, { position: 2 }),
      ];
      await store.repositories.documents.save(target);
      await store.repositories.documents.save(neighbour);
      const [a, b, c] = ["a", "b", "c"].map((name, index) =>
        aMetadataField(dataset.id, { name, createdAt: 1_700_000_000 + index }),
      ) as [
        ReturnType<typeof aMetadataField>,
        ReturnType<typeof aMetadataField>,
        ReturnType<typeof aMetadataField>,
      ];
      for (const field of [a, b, c]) await store.repositories.metadata.saveField(field);
      await store.repositories.metadata.setValue(target.id, c.id, "before");
      await store.repositories.metadata.setValue(neighbour.id, a.id, "neighbour");

      // Request i sets a, b, c to "v<i>"; every third sets a and b only, so replacing clears c.
      const sets = Array.from({ length: 20 }, (_, index) => (index % 3 === 2 ? [a, b] : [a, b, c])).map(
        (fields, index) => ({ value: `v${index}`, fields }),
      );
      const responses = await race(
        sets.map(({ value, fields }) => ({
          method: "POST",
          path: `/v1/datasets/${dataset.id}/documents/metadata`,
          body: {
            operation_data: [
              {
                document_id: target.id,
                metadata_list: fields.map((field) => ({ id: field.id, name: field.name, value })),
                partial_update: false,
              },
            ],
          },
        })),
      );
      expect(statuses(responses)).toEqual(responses.map(() => 200));
      for (const response of responses) expect(response.body).toEqual({ result: "success" });

      const values = await store.repositories.metadata.valuesOf(target.id);
      const winner = sets.find(({ value }) => value === values[0]?.value);
      expect(winner).toBeDefined();
      expect(values).toEqual(
        winner!.fields.map((field) => ({
          id: field.id,
          name: field.name,
          type: "string",
          value: winner!.value,
        })),
      );
      const shown = await send(0, "GET", `/v1/datasets/${dataset.id}/documents/${target.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body.doc_metadata).toEqual(
        winner!.fields.map((field) => ({
          id: field.id,
          name: field.name,
          type: "string",
          value: winner!.value,
        })),
      );
      expect((await send(1, "GET", `/v1/datasets/${dataset.id}/metadata`)).body).toEqual({
        doc_metadata: [
          { id: a.id, name: "a", type: "string", count: 2 },
          { id: b.id, name: "b", type: "string", count: 1 },
          { id: c.id, name: "c", type: "string", count: winner!.fields.includes(c) ? 1 : 0 },
        ],
        built_in_field_enabled: false,
      });
    });

    it("keeps each field's count equal to a recount when value writes, field deletes and document deletes race through both", async () => {
      const dataset = await newDataset();
      const path = `/v1/datasets/${dataset.id}`;
      const documents = Array.from({ length: 12 }, (_, index) =>
        aDocument(dataset.id, { position: index + 1 }),
      );
      for (const document of documents) await store.repositories.documents.save(document);
      const fields = Array.from({ length: 4 }, (_, index) =>
        aMetadataField(dataset.id, { name: `f${index}`, createdAt: 1_700_000_000 + index }),
      );
      for (const field of fields) await store.repositories.metadata.saveField(field);
      for (const document of documents.slice(0, 6))
        await store.repositories.metadata.setValue(document.id, fields[0]!.id, "seeded");

      const writes = documents.map((document, index) => ({
        method: "POST",
        path: `${path}/documents/metadata`,
        body: {
          operation_data: [
            {
              document_id: document.id,
              metadata_list: fields.map((field) => ({ id: field.id, name: field.name, value: `v${index}` })),
              partial_update: index % 2 === 0,
            },
          ],
        },
      }));
      const deletes = [
        ...fields.slice(0, 2).map((field) => ({ method: "DELETE", path: `${path}/metadata/${field.id}` })),
        ...documents
          .slice(0, 4)
          .map((document) => ({ method: "DELETE", path: `${path}/documents/${document.id}` })),
      ];
      const requests = [...writes, ...deletes].map((request, index, all) => ({
        request,
        key: (index * 7) % all.length,
      }));
      requests.sort((left, right) => left.key - right.key);
      const responses = await race(requests.map(({ request }) => request));

      for (const [index, response] of responses.entries()) {
        const { request } = requests[index]!;
        // A write that read after a delete is 404 for what went; nothing is a 500 or a 503.
        if (request.method === "POST") expect([200, 404], response.text).toContain(response.status);
        else expect(response.status, response.text).toBe(204);
      }
      const remaining = documents.slice(4);
      const recount = new Map<string, number>();
      for (const document of remaining)
        for (const entry of await store.repositories.metadata.valuesOf(document.id))
          recount.set(entry.id, (recount.get(entry.id) ?? 0) + 1);
      const listed = await send(1, "GET", `${path}/metadata`);
      expect(listed.body.doc_metadata).toEqual(
        fields.slice(2).map((field) => ({
          id: field.id,
          name: field.name,
          type: "string",
          count: recount.get(field.id) ?? 0,
        })),
      );
      // A remaining document's write that answered 200 landed whole; one that answered 404 wrote nothing.
      for (const [index, document] of remaining.entries()) {
        const write = responses[requests.findIndex(({ request }) => request === writes[index + 4])]!;
        expect((await store.repositories.metadata.valuesOf(document.id)).map((entry) => entry.value)).toEqual(
          write.status === 200 ? fields.slice(2).map(() => `v${index + 4}`) : [],
        );
      }
    });

    describe("dataset counters", () => {
      /** A dataset of thirty documents, each with its own word count, some disabled, archived or indexing. */
      async function datasetOfDocuments() {
        const dataset = await newDataset();
        const documents: Document[] = Array.from({ length: 30 }, (_, index) =>
          aDocument(dataset.id, {
            name: `doc-${index}.txt`,
            position: index + 1,
            wordCount: 100 + index * 7,
            indexingStatus: index % 10 === 9 ? "indexing" : "completed",
            enabled: index % 6 !== 5,
            disabledAt: index % 6 === 5 ? 1_700_000_200 : null,
            archived: index % 8 === 7,
            archivedAt: index % 8 === 7 ? 1_700_000_300 : null,
          }),
        );
        for (const document of documents) await store.repositories.documents.save(document);
        const path = `/v1/datasets/${dataset.id}`;
        return { dataset, documents, path };
      }

      /** The four counts Get Dataset shows, read through one instance. */
      async function counters(path: string, index: number) {
        const response = await send(index, "GET", path);
        expect(response.status).toBe(200);
        const { document_count, total_documents, total_available_documents, word_count } = response.body;
        return { document_count, total_documents, total_available_documents, word_count };
      }

      /** What the documents themselves give, listed page by page (never the counters). */
      async function recount(datasetId: string, path: string) {
        const listed: { id: string; display_status: string; word_count: number }[] = [];
        for (let page = 1; ; page += 1) {
          const response = await send(page, "GET", `${path}/documents?limit=7&page=${page}`);
          expect(response.status).toBe(200);
          listed.push(...response.body.data);
          if (!response.body.has_more) break;
        }
        const rows = await store.repositories.documents.listInDataset(datasetId);
        expect(listed.map((document) => document.id).sort()).toEqual(
          rows.map((document) => document.id).sort(),
        );
        return {
          ids: listed.map((document) => document.id),
          counts: {
            document_count: listed.length,
            total_documents: listed.length,
            total_available_documents: listed.filter((document) => document.display_status === "available")
              .length,
            word_count: listed.reduce((sum, document) => sum + document.word_count, 0),
          },
        };
      }

      /** The counters through both instances, and the filtered list's total, against a recount. */
      async function expectCountersToMatchRecount(datasetId: string, path: string) {
        const { ids, counts } = await recount(datasetId, path);
        expect(await counters(path, 0)).toEqual(counts);
        expect(await counters(path, 1)).toEqual(counts);
        const available = await send(0, "GET", `${path}/documents?status=available&limit=1`);
        expect(available.body.total).toBe(counts.total_available_documents);
        return ids;
      }

      /** Status changes over overlapping windows of the completed documents, every action in each round. */
      function statusChanges(path: string, documents: readonly Document[]) {
        const completed = documents.filter((document) => document.indexingStatus === "completed");
        const window = (start: number, length: number) =>
          Array.from({ length }, (_, offset) => completed[(start + offset) % completed.length]!.id);
        const change = (action: string, documentIds: string[]) => ({
          method: "PATCH",
          path: `${path}/documents/status/${action}`,
          body: { document_ids: documentIds },
        });
        return Array.from({ length: 6 }, (_, round) => [
          change("disable", window(round * 4, 4)),
          change("enable", window(round * 4 + 2, 4)),
          change("archive", window(round * 4 + 1, 3)),
          change("un_archive", window(round * 4 + 3, 3)),
          // Enabling needs no completed document: these take the indexing ones in turn.
          change("enable", [documents[round * 5 + 4]!.id, documents[(round * 5 + 9) % 30]!.id]),
        ]).flat();
      }

      it("keeps them equal to a recount when status changes race through both", async () => {
        const { dataset, documents, path } = await datasetOfDocuments();
        expect((await recount(dataset.id, path)).counts).toEqual({
          document_count: 30,
          total_documents: 30,
          total_available_documents: documents.filter(
            (document) => document.indexingStatus === "completed" && document.enabled && !document.archived,
          ).length,
          word_count: documents.reduce((sum, document) => sum + document.wordCount, 0),
        });
        await expectCountersToMatchRecount(dataset.id, path);

        const responses = await race(statusChanges(path, documents));
        for (const response of responses) {
          expect(response.status, response.text).toBe(200);
          expect(response.body).toEqual({ result: "success" });
        }
        await expectCountersToMatchRecount(dataset.id, path);
      });

      it("keeps them equal to a recount when each document is deleted twice at once, through each instance", async () => {
        const { dataset, documents, path } = await datasetOfDocuments();
        const deletable = documents.filter((document) => !document.archived);
        const kept = documents.filter((document) => document.archived);
        const responses = await race(
          deletable.flatMap((document) => [
            { method: "DELETE", path: `${path}/documents/${document.id}` },
            { method: "DELETE", path: `${path}/documents/${document.id}` },
          ]),
        );
        for (const [index, document] of deletable.entries()) {
          const pair = responses.slice(index * 2, index * 2 + 2);
          for (const response of pair) expect([204, 404], response.text).toContain(response.status);
          expect(pair.map((response) => response.status).sort()).toEqual([204, 404]);
          for (const response of pair.filter((response) => response.status === 404))
            expect(response.body).toEqual({
              status: 404,
              code: "not_found",
              message: "Document Not Exists.",
            });
          expect(await store.repositories.documents.findInDataset(dataset.id, document.id)).toBeUndefined();
        }
        const ids = await expectCountersToMatchRecount(dataset.id, path);
        expect(ids.sort()).toEqual(kept.map((document) => document.id).sort());
      });

      it("keeps them equal to a recount when status changes and deletes race through both", async () => {
        const { dataset, documents, path } = await datasetOfDocuments();
        const requests: { method: string; path: string; body?: object }[] = statusChanges(path, documents);
        for (const [index, document] of documents.entries()) {
          if (index % 3 === 0) requests.push({ method: "DELETE", path: `${path}/documents/${document.id}` });
        }
        // The deletes interleaved among the status changes.
        const shuffled = requests
          .map((request, index) => ({ request, key: (index * 37) % requests.length }))
          .sort((left, right) => left.key - right.key)
          .map(({ request }) => request);
        const responses = await race(shuffled);

        const deleted: string[] = [];
        for (const [index, response] of responses.entries()) {
          const request = shuffled[index]!;
          // No deadlock turned into a 503: a status change succeeds; a delete succeeds, or meets an archive.
          expect(request.method === "DELETE" ? [204, 403] : [200], response.text).toContain(response.status);
          if (request.method === "DELETE" && response.status === 204)
            deleted.push(request.path.split("/").pop()!);
          if (response.status === 403) expect(response.body.code).toBe("archived_document_immutable");
        }
        const ids = await expectCountersToMatchRecount(dataset.id, path);
        for (const id of deleted) expect(ids).not.toContain(id);
      });
    });
  },
);
