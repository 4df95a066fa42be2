import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@service-api/ports";
import {
  aChunk,
  aConversation,
  aDataset,
  aDocument,
  aMember,
  aMetadataField,
  anApiKey,
  anApp,
  anEndUser,
  aSite,
  aTag,
  aVariable,
  aWorkspace,
} from "@service-api/ports/testing";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "./open-sqlite-store.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-plans-"));
const path = join(directory, "plans.sqlite");
const reads: { sql: string; parameters: readonly unknown[] }[] = [];
let store: Store;

/** Every read the repositories make while serving the five operations, exporting and listing keys. */
async function readEverything() {
  const {
    workspaces,
    apiKeys,
    datasets,
    documents,
    metadata,
    tags,
    apps,
    endUsers,
    conversations,
    rateLimits,
    secrets,
    segments,
  } = store.repositories;
  const workspace = aWorkspace();
  await workspaces.save(workspace);
  const member = aMember(workspace.id);
  await workspaces.saveMember(member);
  const dataset = aDataset(workspace.id);
  await datasets.save(dataset);
  const document = aDocument(dataset.id);
  await documents.save(document);
  await documents.saveChunks([aChunk(document.id)]);
  const field = aMetadataField(dataset.id);
  await metadata.saveField(field);
  await metadata.setValue(document.id, field.id, "v");
  const tag = aTag(workspace.id);
  await tags.save(tag);
  const app = anApp(workspace.id);
  await apps.save(app);
  await apps.saveSite(aSite(app.id));
  const endUser = anEndUser(app.id);
  await endUsers.save(endUser);
  const conversation = aConversation(app.id, endUser.id);
  await conversations.save(conversation);
  const variable = aVariable(conversation.id);
  await conversations.saveVariable(variable);
  await apiKeys.save(anApiKey(workspace.id, "hash", { kind: "app", appId: app.id }));

  recording = true;
  await workspaces.findById(workspace.id);
  await workspaces.findMember(workspace.id, member.id);
  await apiKeys.findByTokenHash("hash");
  await datasets.findInWorkspace(workspace.id, dataset.id);
  await documents.findInDataset(dataset.id, document.id);
  await documents.findUploadFile("file");
  await documents.chunkStats(document.id);
  await documents.countInDataset(dataset.id);
  await metadata.listFields(dataset.id);
  await metadata.valuesOf(document.id);
  await metadata.listFieldUsage(dataset.id);
  await tags.findByIds([tag.id]);
  // One read per request: what Get Document, List Metadata Fields and Update Conversation Variable
  // read, each in one statement; Create and Remove Tag Binding check their dataset as they write.
  await documents.findDetail(workspace.id, dataset.id, document.id);
  await metadata.findFieldUsage(workspace.id, dataset.id);
  await tags.bindToDataset({
    workspaceId: workspace.id,
    datasetId: dataset.id,
    tags: [{ tagId: tag.id, bindingId: "bound" }],
    createdAt: 1,
  });
  await tags.unbindFromDataset(workspace.id, dataset.id, [tag.id]);
  // The field writes, checking the dataset as they write.
  const written = aMetadataField(dataset.id, { name: "written" });
  await metadata.createField(written, workspace.id);
  await metadata.renameField(dataset.id, written.id, "renamed", workspace.id);
  await metadata.deleteField(dataset.id, written.id, workspace.id);
  await datasets.setBuiltInFieldEnabled(dataset.id, true, 2, workspace.id);
  await datasets.setBuiltInFieldEnabled(dataset.id, true, 3, workspace.id);
  const doomed = aDocument(dataset.id);
  await documents.save(doomed);
  await documents.delete(dataset.id, doomed.id, { archived: false }, workspace.id);
  await conversations.findForVariableUpdate(app.id, endUser.sessionId, conversation.id, variable.id);
  await tags.bind([
    { id: "b", workspaceId: workspace.id, tagId: tag.id, targetId: dataset.id, createdAt: 1 },
  ]);
  await tags.boundTagIds(dataset.id);
  await apps.findById(app.id);
  await apps.findSite(app.id);
  await endUsers.findBySessionId(app.id, endUser.sessionId);
  await conversations.findInApp(app.id, conversation.id);
  await conversations.findVariable(conversation.id, variable.id);
  await conversations.updateVariableValue(conversation.id, variable.id, "x", 2);
  await conversations.updateVariableValueIfAllowed({
    appId: app.id,
    sessionId: endUser.sessionId,
    conversationId: conversation.id,
    variableId: variable.id,
    acceptedTypes: ["string", "secret"],
    value: "y",
    updatedAt: 3,
  });
  // The management operations' reads.
  await workspaces.findOwner(workspace.id);
  await datasets.findOverview(workspace.id, dataset.id);
  await datasets.listPage(workspace.id, {}, 0, 20);
  await datasets.listPage(workspace.id, { tagIds: [tag.id] }, 0, 20);
  await documents.listPage(dataset.id, {}, 0, 20);
  await documents.listPage(dataset.id, { status: "available" }, 0, 20);
  smallKeywordReads.start = reads.length;
  await documents.listPage(dataset.id, { keyword: "guide" }, 0, 20);
  smallKeywordReads.end = reads.length;
  // As large as a dataset the name search index serves (its counter says so; the rows do not matter).
  const counter = new Database(path);
  counter.prepare("update datasets set document_count = 5000 where id = ?").run(dataset.id);
  // Another connection's write is read from the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  keywordReads.start = reads.length;
  await documents.listPage(dataset.id, { keyword: "guide" }, 0, 20);
  keywordReads.end = reads.length;
  counter.prepare("update datasets set document_count = 1 where id = ?").run(dataset.id);
  counter.close();
  await new Promise((resolve) => setImmediate(resolve));
  statusWrites.start = reads.length;
  await documents.updateStatus(dataset.id, {
    read: [document],
    changing: [document.id],
    patch: { enabled: document.enabled, updatedAt: 4 },
  });
  statusWrites.end = reads.length;
  await documents.findManyInDataset(dataset.id, [document.id]);
  await metadata.findField(dataset.id, field.id);
  await metadata.valuesOfDocuments([document.id]);
  await metadata.listFieldsOf([dataset.id]);
  await tags.findInWorkspace(workspace.id, "knowledge", tag.id);
  await tags.listCounted(workspace.id, "knowledge");
  await tags.boundTags([dataset.id]);
  await conversations.listVariablesPage(conversation.id, { limit: 20 });
  await conversations.listVariablesPage(conversation.id, {
    limit: 20,
    after: { createdAt: 1, id: variable.id },
  });
  await rateLimits.hit("key:k", 1, 1000);
  await rateLimits.unhit("key:k", 2);
  await rateLimits.reset("key:k");
  await rateLimits.deleteEnded(3);
  await secrets.ensure("signing-key", "first");
  await secrets.ensure("signing-key", "second");
  // The listings export and key administration read (a listing of everything is a scan by nature).
  await workspaces.listMembers(workspace.id);
  await apiKeys.list({ workspaceId: workspace.id });
  await apiKeys.list({ appId: app.id });
  await datasets.listInWorkspace(workspace.id);
  await documents.listInDataset(dataset.id);
  positionReads.start = reads.length;
  await documents.listInDatasetAfter(dataset.id, undefined, 200);
  await documents.listInDatasetAfter(dataset.id, document, 200);
  positionReads.end = reads.length;
  await documents.listChunks(document.id);
  segmentKeywordReads.start = reads.length;
  await segments.listPageOfDocument(document.id, { keyword: "widget" }, 0, 20);
  segmentKeywordReads.end = reads.length;
  await segments.listOfDocuments([document.id]);
  await segments.listOfDocuments(Array.from({ length: 200 }, (_, index) => `${document.id}-${index}`));
  await tags.listInWorkspace(workspace.id);
  await apps.listInWorkspace(workspace.id);
  await endUsers.findById(endUser.id);
  await conversations.listInApp(app.id);
  await conversations.listVariables(conversation.id);
  recording = false;
  return { workspace, dataset, document, tag, app, endUser, conversation, variable };
}

/** The reads SQLite makes apart by default, gathered into one statement each (`gatherReads`). */
async function readGathered({ workspace, dataset, document, app, endUser, conversation, variable }: Seeded) {
  const gathered = await openSqliteStore({ databaseUrl: path, gatherReads: true, onQuery: record });
  const { documents, metadata, tags, conversations, datasets } = gathered.repositories;
  recording = true;
  await documents.findDetail(workspace.id, dataset.id, document.id);
  await metadata.findFieldUsage(workspace.id, dataset.id);
  await metadata.findForValueWrite(workspace.id, dataset.id, [document.id]);
  await tags.findBoundToDataset(workspace.id, dataset.id);
  await conversations.findForVariableUpdate(app.id, endUser.sessionId, conversation.id, variable.id);
  await datasets.findOverview(workspace.id, dataset.id);
  await documents.findPage(workspace.id, dataset.id, {}, 0, 20);
  await documents.findPage(workspace.id, dataset.id, { status: "available" }, 20, 20);
  recording = false;
  await gathered.close();
}
type Seeded = Awaited<ReturnType<typeof readEverything>>;
let recording = false;
const record = (sql: string, parameters: readonly unknown[]) => {
  if (recording) reads.push({ sql, parameters });
};
/** Where the reads of the document list filtered by keyword are. */
const keywordReads = { start: 0, end: 0 };
/** Where a status change's statement is. */
const statusWrites = { start: 0, end: 0 };
/** Where the reads of the same search in a small dataset are. */
const smallKeywordReads = { start: 0, end: 0 };
/** Where the reads of a document's chunks filtered by keyword are. */
const segmentKeywordReads = { start: 0, end: 0 };
/** Where the reads of a dataset's documents in position order, a page at a time, are. */
const positionReads = { start: 0, end: 0 };

beforeAll(async () => {
  store = await openSqliteStore({ databaseUrl: path, onQuery: record });
  await readGathered(await readEverything());
});

afterAll(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

/** The plans of the statements recorded in `range`, each as its steps' details, on a read-only connection. */
function plansOf({ start, end }: { start: number; end: number }): string[][] {
  const database = new Database(path, { readonly: true });
  try {
    return reads.slice(start, end).map(({ sql, parameters }) =>
      database
        .prepare(`explain query plan ${sql}`)
        .all(...(parameters as unknown[]))
        .map((step) => (step as { detail: string }).detail),
    );
  } finally {
    database.close();
  }
}

describe("SQLite query plans", () => {
  it("serves every repository query from an index, never a full table scan", () => {
    const database = new Database(path, { readonly: true });
    try {
      expect(reads.length).toBeGreaterThanOrEqual(55);
      for (const { sql, parameters } of reads) {
        const plan = database
          .prepare(`explain query plan ${sql}`)
          .all(...(parameters as unknown[]))
          .map((step) => (step as { detail: string }).detail);
        // A sub-query's own rows (a page already cut to its size) and a statement's own `values` rows
        // (`SCAN CONSTANT ROW`) are read whole, which is no table scan.
        const subqueries = plan.flatMap(
          (detail) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(detail)?.[1] ?? [],
        );
        const fullScans = plan.filter(
          (detail) =>
            /^SCAN /.test(detail) &&
            detail !== "SCAN CONSTANT ROW" &&
            !/USING (COVERING )?INDEX|VIRTUAL TABLE INDEX/.test(detail) &&
            !subqueries.includes(detail.slice("SCAN ".length).replace(/ LEFT-JOIN$/, "")),
        );
        expect({ sql, fullScans }).toEqual({ sql, fullScans: [] });
      }
    } finally {
      database.close();
    }
  });

  it("serves a keyword search of a large dataset's names from the FTS5 trigram index, a small one's from its own", () => {
    const searches = (plans: string[][]) =>
      plans.map((plan) => plan.filter((detail) => /VIRTUAL TABLE INDEX/.test(detail)).length);
    // The dataset's counter, then the page and, in a sub-select, its total search the index; the
    // page's values follow apart.
    expect(searches(plansOf(keywordReads))).toEqual([0, 2, 0]);
    // Every workspace's names are in the index: a small dataset's search reads the dataset's own.
    const small = plansOf(smallKeywordReads);
    expect(searches(small)).toEqual([0, 0, 0]);
    expect(small[1]!.filter((detail) => detail.startsWith("SEARCH documents USING"))).toHaveLength(2);
  });

  it("serves a keyword filter of a document's chunks from the trigram index, within the document's key range", () => {
    // The total and the page: each a match in chunk_contents bounded by the document's rowids
    // (`M` the match, `>` and `<` the range), its candidates then read by id.
    const plans = plansOf(segmentKeywordReads);
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan).toContainEqual(
        expect.stringMatching(/^SCAN chunk_contents VIRTUAL TABLE INDEX \d+:M\d*></),
      );
      expect(plan.filter((detail) => /^SCAN chunks\b/.test(detail))).toEqual([]);
    }
  });

  it("checks a status change's documents by their ids, never walking the dataset's", () => {
    const checked = plansOf(statusWrites)
      .flat()
      .filter((detail) => detail.includes(" as_read "));
    expect(checked).toEqual([expect.stringMatching(/^SEARCH as_read USING INDEX \S+ \(id=\?\)$/)]);
  });

  it("reads a dataset's documents in position order from where a page ended, in the index's order", () => {
    // The first page from the dataset's first entry, a later one from the entry after its place.
    expect(plansOf(positionReads)).toEqual([
      ["SEARCH documents USING INDEX documents_by_dataset_position (dataset_id=?)"],
      ["SEARCH documents USING INDEX documents_by_dataset_position (dataset_id=? AND (position,id)>(?,?))"],
    ]);
  });
});
