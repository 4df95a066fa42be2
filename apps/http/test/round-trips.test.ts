import {
  countsPlans,
  createTestDatabase,
  namedStatementsOf,
  plannedOnEveryCall,
  requirePostgresForTests,
} from "@service-api/adapters-postgres/testing";
import type { Store } from "@service-api/ports";
import { aDocument, aMetadataField, aTag } from "@service-api/ports/testing";
import { openStore } from "@service-api/stores";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { type RunningServer, startServer } from "../src/server.js";
import { call } from "./support/http.js";
import { postgresWireCounter } from "./support/postgres-wire.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.js";
import { TEST_STORE } from "./support/test-database.js";

/**
 * Round trips to PostgreSQL per request, counted on the wire between the server and the database:
 * every operation stays at or under its ceiling, so the number cannot creep back.
 */

const ready = TEST_STORE === "postgres" && (await requirePostgresForTests());

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: TcpProxy;
let running: RunningServer;
let store: Store;
let world: SeededWorkspace;
const wire = postgresWireCounter();

beforeAll(async () => {
  if (!ready) return;
  database = await createTestDatabase();
  store = await openStore({ databaseUrl: database.url });
  world = await seedWorkspace(store.repositories);
  const target = new URL(database.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) }, wire.read);
  const throughProxy = new URL(database.url);
  throughProxy.port = String(proxy.port);
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: throughProxy.toString(),
    // One connection, so a statement prepared once is found prepared by the next request.
    DATABASE_POOL_MAX: "1",
    // No fold of field counts and no background worker between requests: every statement on the
    // wire is a request's.
    DATABASE_FIELD_COUNT_FOLD_MS: "0",
    INDEXING_CONCURRENCY: "0",
    LOG_LEVEL: "silent",
    SHUTDOWN_DRAIN_MS: "0",
  });
  running = await startServer(config, createLogger(config.logLevel));
});

afterAll(async () => {
  if (!ready) return;
  const closing = running.close();
  running.server.closeIdleConnections();
  await closing;
  await store.close();
  await proxy.close();
  await database.drop();
});

const unique = (prefix: string) => `${prefix}_${crypto.randomUUID().slice(0, 8)}`;

/** The spec's five operations: their statements are named and, once prepared, never parsed again. */
const HOT = new Set([
  "GET /v1/datasets/{dataset_id}/documents/{document_id}",
  "PUT /v1/conversations/{conversation_id}/variables/{variable_id}",
  "POST /v1/datasets/tags/binding",
  "GET /v1/datasets/{dataset_id}/metadata",
  "GET /v1/site",
]);

/**
 * Also sent only as named statements once warm: every operation but the status change, whose
 * statement is built for each request.
 */
const NAMED = new Set([
  ...HOT,
  "GET /v1/datasets/tags",
  "POST /v1/datasets/tags",
  "DELETE /v1/datasets/tags",
  "GET /v1/datasets/{dataset_id}/metadata/built-in",
  "GET /v1/datasets",
  "GET /v1/datasets (a keyword and tags)",
  "GET /v1/datasets/{dataset_id}",
  "GET /v1/info",
  "POST /v1/datasets/tags/unbinding",
  "POST /v1/datasets/{dataset_id}/metadata",
  "DELETE /v1/datasets/{dataset_id}/metadata/{metadata_id}",
  "POST /v1/datasets/{dataset_id}/metadata/built-in/{action}",
  "DELETE /v1/datasets/{dataset_id}/documents/{document_id}",
  "GET /v1/datasets/{dataset_id}/documents",
  "GET /v1/datasets/{dataset_id}/tags",
  "GET /v1/conversations/{conversation_id}/variables",
  "GET /v1/conversations/{conversation_id}/variables (after a variable)",
  "GET /v1/conversations/{conversation_id}/variables (a name filter)",
  "GET /v1/conversations/{conversation_id}/variables (a name filter, after a variable)",
  "PATCH /v1/datasets/tags",
  "PATCH /v1/datasets/{dataset_id}/metadata/{metadata_id}",
  "POST /v1/datasets/{dataset_id}/documents/metadata",
  "POST /v1/datasets/{dataset_id}/documents/metadata (replacing all values, the default)",
  "POST /v1/datasets/{dataset_id}/documents/metadata (a value cleared)",
]);

/**
 * The goal is one round trip for a read and at most two for a write: a write reads what its rules
 * need (the dataset with it) and then writes in one statement. Each ceiling is what the operation
 * takes today, so it can only go down. `PRINT_TRIPS=1` prints each operation's count.
 */
interface Case {
  operation: string;
  key: "knowledge" | "app";
  /** Round trips one request may take at most. */
  ceiling: number;
  /** Makes what one request uses up (a tag to delete), before it is sent. */
  prepare?: () => Promise<string>;
  request: (prepared: string) => { method: string; path: string; body?: unknown };
  status: number;
}

const dataset = () => world.dataset.id;
let listsWithTags = 0;
const conversationPath = () => `/v1/conversations/${world.conversation.id}/variables`;

/** Set Document Metadata on the world's document: the author's value, partly (`partial_update`) or whole. */
const valueWrite = (
  form: string,
  { partial_update, value }: { partial_update?: true; value: () => string | null },
): Case => ({
  operation: `POST /v1/datasets/{dataset_id}/documents/metadata${form}`,
  key: "knowledge",
  ceiling: 2,
  status: 200,
  request: () => ({
    method: "POST",
    path: `/v1/datasets/${dataset()}/documents/metadata`,
    body: {
      operation_data: [
        {
          document_id: world.document.id,
          ...(partial_update && { partial_update }),
          metadata_list: [{ id: world.fields.author.id, name: "author", value: value() }],
        },
      ],
    },
  }),
});

const CASES: Case[] = [
  {
    operation: "GET /v1/datasets/tags",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: "/v1/datasets/tags" }),
  },
  {
    operation: "POST /v1/datasets/tags",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "POST", path: "/v1/datasets/tags", body: { name: unique("tag") } }),
  },
  {
    operation: "PATCH /v1/datasets/tags",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({
      method: "PATCH",
      path: "/v1/datasets/tags",
      body: { tag_id: world.knowledgeTags[0]!.id, name: unique("tag") },
    }),
  },
  {
    operation: "DELETE /v1/datasets/tags",
    key: "knowledge",
    ceiling: 1,
    status: 204,
    prepare: async () => {
      const tag = aTag(world.workspace.id, { name: unique("doomed") });
      await store.repositories.tags.save(tag);
      return tag.id;
    },
    request: (tagId) => ({ method: "DELETE", path: `/v1/datasets/tags?tag_id=${tagId}` }),
  },
  {
    operation: "POST /v1/datasets/tags/binding",
    key: "knowledge",
    ceiling: 1,
    status: 204,
    request: () => ({
      method: "POST",
      path: "/v1/datasets/tags/binding",
      body: { tag_ids: world.knowledgeTags.map((tag) => tag.id), target_id: dataset() },
    }),
  },
  {
    operation: "POST /v1/datasets/tags/unbinding",
    key: "knowledge",
    ceiling: 1,
    status: 204,
    request: () => ({
      method: "POST",
      path: "/v1/datasets/tags/unbinding",
      body: { tag_ids: [world.knowledgeTags[1]!.id], target_id: dataset() },
    }),
  },
  {
    operation: "GET /v1/datasets/{dataset_id}/tags",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: `/v1/datasets/${dataset()}/tags` }),
  },
  {
    operation: "GET /v1/datasets/{dataset_id}/metadata",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: `/v1/datasets/${dataset()}/metadata` }),
  },
  {
    operation: "POST /v1/datasets/{dataset_id}/metadata",
    key: "knowledge",
    ceiling: 1,
    status: 201,
    request: () => ({
      method: "POST",
      path: `/v1/datasets/${dataset()}/metadata`,
      body: { type: "string", name: unique("field") },
    }),
  },
  {
    operation: "PATCH /v1/datasets/{dataset_id}/metadata/{metadata_id}",
    key: "knowledge",
    // The rename lets its row go before the WAL flush; the second trip is the flush its answer awaits.
    ceiling: 2,
    status: 200,
    request: () => ({
      method: "PATCH",
      path: `/v1/datasets/${dataset()}/metadata/${world.fields.author.id}`,
      body: { name: unique("field") },
    }),
  },
  {
    operation: "DELETE /v1/datasets/{dataset_id}/metadata/{metadata_id}",
    key: "knowledge",
    ceiling: 1,
    status: 204,
    prepare: async () => {
      const field = aMetadataField(dataset(), { name: unique("doomed") });
      await store.repositories.metadata.saveField(field);
      return field.id;
    },
    request: (fieldId) => ({ method: "DELETE", path: `/v1/datasets/${dataset()}/metadata/${fieldId}` }),
  },
  {
    operation: "GET /v1/datasets/{dataset_id}/metadata/built-in",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: `/v1/datasets/${dataset()}/metadata/built-in` }),
  },
  {
    operation: "POST /v1/datasets/{dataset_id}/metadata/built-in/{action}",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "POST", path: `/v1/datasets/${dataset()}/metadata/built-in/enable` }),
  },
  valueWrite("", { partial_update: true, value: () => unique("value") }),
  valueWrite(" (replacing all values, the default)", { value: () => unique("value") }),
  valueWrite(" (a value cleared)", { partial_update: true, value: () => null }),
  {
    operation: "GET /v1/datasets/{dataset_id}/documents",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: `/v1/datasets/${dataset()}/documents?page=1&limit=20` }),
  },
  {
    operation: "GET /v1/datasets/{dataset_id}/documents/{document_id}",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({
      method: "GET",
      path: `/v1/datasets/${dataset()}/documents/${world.document.id}?metadata=all`,
    }),
  },
  {
    operation: "DELETE /v1/datasets/{dataset_id}/documents/{document_id}",
    key: "knowledge",
    ceiling: 1,
    status: 204,
    prepare: async () => {
      const document = aDocument(dataset(), { name: unique("doomed"), createdBy: world.member.id });
      await store.repositories.documents.save(document);
      return document.id;
    },
    request: (documentId) => ({
      method: "DELETE",
      path: `/v1/datasets/${dataset()}/documents/${documentId}`,
    }),
  },
  {
    operation: "PATCH /v1/datasets/{dataset_id}/documents/status/{action}",
    key: "knowledge",
    ceiling: 2,
    status: 200,
    // Disabled first, so that the request enables it: a read and a write.
    prepare: async () => {
      await store.repositories.documents.save({ ...world.second, enabled: false, disabledAt: 1 });
      return world.second.id;
    },
    request: () => ({
      method: "PATCH",
      path: `/v1/datasets/${dataset()}/documents/status/enable`,
      body: { document_ids: [world.second.id] },
    }),
  },
  {
    operation: "POST /v1/datasets/{dataset_id}/document/create-by-text",
    key: "knowledge",
    // The dataset; in one transaction its lock, overview, the owner, the duplicate's look-up, the
    // position, the dataset's rule, the file, its bytes, the document and its job; the answer's
    // listing. Not yet gathered into fewer statements: the ceiling can only go down.
    ceiling: 17,
    status: 200,
    request: () => ({
      method: "POST",
      path: `/v1/datasets/${dataset()}/document/create-by-text`,
      body: { name: unique("note"), text: "A short text." },
    }),
  },
  {
    operation: "POST /v1/datasets/{dataset_id}/documents/{document_id}/update-by-text",
    key: "knowledge",
    ceiling: 16,
    status: 200,
    // Available again before each request: the last one left it waiting.
    prepare: async () => {
      await store.repositories.documents.save(world.second);
      return world.second.id;
    },
    request: (documentId) => ({
      method: "POST",
      path: `/v1/datasets/${dataset()}/documents/${documentId}/update-by-text`,
      body: { name: world.second.name, text: unique("text") },
    }),
  },
  {
    operation: "GET /v1/datasets/{dataset_id}/documents/{batch}/indexing-status",
    key: "knowledge",
    ceiling: 2,
    status: 200,
    prepare: async () => {
      await store.repositories.documents.save({ ...world.second, batch: "20260101000000123456" });
      return "20260101000000123456";
    },
    request: (batch) => ({
      method: "GET",
      path: `/v1/datasets/${dataset()}/documents/${batch}/indexing-status`,
    }),
  },
  {
    operation: "GET /v1/datasets",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: "/v1/datasets?page=1&limit=20" }),
  },
  {
    operation: "GET /v1/datasets (a keyword and tags)",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => {
      // One tag, then two at the measured request: the number of tags does not change the statement.
      listsWithTags += 1;
      const tags = world.knowledgeTags.slice(0, listsWithTags < 3 ? 1 : 2);
      const filter = tags.map((tag) => `tag_ids=${tag.id}`).join("&");
      return { method: "GET", path: `/v1/datasets?keyword=${world.dataset.name.slice(1, 4)}&${filter}` };
    },
  },
  {
    operation: "GET /v1/datasets/{dataset_id}",
    key: "knowledge",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: `/v1/datasets/${dataset()}` }),
  },
  {
    operation: "POST /v1/datasets",
    key: "knowledge",
    // The owner (its creator), the insert (the unique name settles races), the dataset object.
    ceiling: 3,
    status: 200,
    request: () => ({ method: "POST", path: "/v1/datasets", body: { name: unique("kb") } }),
  },
  {
    operation: "PATCH /v1/datasets/{dataset_id}",
    key: "knowledge",
    // The dataset checks, the owner (who changed it), the update, the dataset object.
    ceiling: 4,
    status: 200,
    request: () => ({
      method: "PATCH",
      path: `/v1/datasets/${dataset()}`,
      body: { description: unique("d") },
    }),
  },
  {
    operation: "DELETE /v1/datasets/{dataset_id}",
    key: "knowledge",
    // One transaction: begin, the dataset checks, its lock, the move, the trash, its bindings, the job, commit.
    ceiling: 8,
    status: 204,
    prepare: async () => {
      const id = crypto.randomUUID();
      expect(await store.repositories.datasets.create({ ...world.dataset, id, name: unique("doomed") })).toBe(
        true,
      );
      return id;
    },
    request: (datasetId) => ({ method: "DELETE", path: `/v1/datasets/${datasetId}` }),
  },
  {
    operation: "GET /v1/conversations/{conversation_id}/variables",
    key: "app",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: `${conversationPath()}?user=alice` }),
  },
  ...(
    [
      ["after a variable", () => `&last_id=${world.variable.id}`],
      ["a name filter", () => "&variable_name=pref"],
      ["a name filter, after a variable", () => `&variable_name=pref&last_id=${world.variable.id}`],
    ] as const
  ).map(
    ([shape, query]): Case => ({
      operation: `GET /v1/conversations/{conversation_id}/variables (${shape})`,
      key: "app",
      ceiling: 1,
      status: 200,
      request: () => ({ method: "GET", path: `${conversationPath()}?user=alice${query()}` }),
    }),
  ),
  {
    operation: "PUT /v1/conversations/{conversation_id}/variables/{variable_id}",
    key: "app",
    ceiling: 1,
    status: 200,
    request: () => ({
      method: "PUT",
      path: `${conversationPath()}/${world.variable.id}`,
      body: { value: unique("coffee"), user: "alice" },
    }),
  },
  {
    operation: "GET /v1/site",
    key: "app",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: "/v1/site" }),
  },
  {
    operation: "GET /v1/info",
    key: "app",
    ceiling: 1,
    status: 200,
    request: () => ({ method: "GET", path: "/v1/info" }),
  },
  {
    operation: "GET /v1/workspaces/current/models/model-types/{model_type}",
    key: "knowledge",
    ceiling: 0,
    status: 200,
    request: () => ({ method: "GET", path: "/v1/workspaces/current/models/model-types/text-embedding" }),
  },
  {
    operation: "GET /v1/meta",
    key: "app",
    ceiling: 0,
    status: 200,
    request: () => ({ method: "GET", path: "/v1/meta" }),
  },
];

/** Sends the case's request once; gives what went over the wire for it. */
async function send(testCase: Case) {
  const token = testCase.key === "app" ? world.apps["advanced-chat"].key : world.datasetKey;
  const prepared = (await testCase.prepare?.()) ?? "";
  const { method, path, body } = testCase.request(prepared);
  wire.take();
  const response = await call(running.url, method, path, { token, body });
  expect(response.status, response.text).toBe(testCase.status);
  return wire.take();
}

describe.runIf(ready)("round trips to PostgreSQL per request", () => {
  it.each(CASES)("$operation", async (testCase) => {
    // The first request may record the key's use and prepare statements; the next ones are steady.
    await send(testCase);
    await send(testCase);
    const steady = await send(testCase);
    if (process.env.PRINT_TRIPS) console.log(`TRIPS ${testCase.operation} ${steady.roundTrips}`);
    expect(steady.roundTrips, steady.parsed.join("\n")).toBeLessThanOrEqual(testCase.ceiling);
    // The five operations of the spec (and the variable list and the renames) send only named
    // statements, already prepared on the connection, whose columns the connection knows already.
    if (NAMED.has(testCase.operation)) {
      expect(steady.parses, steady.parsed.join("\n")).toBe(0);
      expect(steady.describes).toBe(0);
    }
  });

  // PostgreSQL plans a named statement on every call where its plan for any parameters looks
  // dearer than a call's own (an unknown LIMIT, a list as one array): every operation's, checked
  // here as the operations send them, so a new one cannot bring that back unseen.
  it("sends only named statements PostgreSQL plans once for any parameters", async ({ skip }) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      if (!(await countsPlans(client))) skip("PostgreSQL keeps no plan counts before 14");
      const sent = await namedStatementsOf(async () => {
        for (const testCase of CASES) await send(testCase);
      });
      expect(sent.length).toBeGreaterThanOrEqual(10);
      expect(await plannedOnEveryCall(client, sent)).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
