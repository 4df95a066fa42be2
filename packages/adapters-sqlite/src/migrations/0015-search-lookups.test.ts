import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aDataset, aDocument, aSegment, aWorkspace, searchAsRetrieved } from "@service-api/ports/testing";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../open-sqlite-store.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("migration 0015 (units by document, postings with their units' lengths)", () => {
  it("indexes units by document and copies the lengths of the postings 0014 wrote from their units, scores unchanged", async () => {
    const directory = mkdtempSync(join(tmpdir(), "service-api-0015-"));
    directories.push(directory);
    const path = join(directory, "store.sqlite");
    const store = await openSqliteStore({ databaseUrl: path });
    const { workspaces, datasets, documents, segments } = store.repositories;
    const workspace = aWorkspace();
    await workspaces.save(workspace);
    const dataset = aDataset(workspace.id);
    await datasets.save(dataset);
    const document = aDocument(dataset.id);
    await documents.save(document);
    // Of several lengths, so that a length lost (0) would change every score.
    const written = ["Supersonic wings", "Supersonic flutter of thin delta wings at speed", "Delta"].map(
      (content, index) => aSegment(document.id, index + 1, { content, keywords: ["delta"] }),
    );
    await segments.replaceForImport(document.id, written, []);
    const search = (opened: typeof store) =>
      searchAsRetrieved(opened.repositories, dataset.id, "supersonic delta", "content_and_keywords");
    const before = await search(store);
    await store.close();
    expect(before).toHaveLength(3);

    // As 0014 left the index before this release: no units by document, postings without lengths.
    const database = new Database(path);
    database.exec(`
      drop index search_units_by_document;
      alter table search_postings drop column content_length;
      alter table search_postings drop column keyword_length;
      delete from kysely_migration where name = '0015-search-lookups';`);
    database.close();

    const migrated = await openSqliteStore({ databaseUrl: path });
    try {
      expect(await search(migrated)).toEqual(before);
    } finally {
      await migrated.close();
    }
    const reader = new Database(path, { readonly: true });
    const counts = reader
      .prepare(`select count(*) as postings, sum(p.content_length = u.content_length
          and p.keyword_length = u.keyword_length and u.content_length > 0) as copied
        from search_postings p join search_units u on u.seq = p.unit_seq`)
      .get() as { postings: number; copied: number };
    const indexes = reader
      .prepare("select name from sqlite_master where type = 'index' and name = 'search_units_by_document'")
      .all();
    reader.close();
    expect(indexes).toHaveLength(1);
    expect(counts.postings).toBeGreaterThan(0);
    expect(counts.copied).toBe(counts.postings);
  });
});
