import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { Sha256TokenHasher } from "@service-api/adapters-node";
import { openStore } from "@service-api/stores";
import Database from "better-sqlite3";
import { BATCH_SQL, CONVERSATION_COUNT, FIELD_COUNT, ids, KEYS, TAG_COUNT, userOf } from "./fixture.js";

const NOW = 1_767_225_600;
const RULES = JSON.stringify({ segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 50 } });

/**
 * A SQLite database with one knowledge base of `documents` documents (two chunks each, 20 metadata
 * fields with values on 9 of 10 documents, 10 tags) and one chat app with 100 conversations. Built
 * with prepared statements in large transactions, so a million documents take minutes. The schema
 * comes from the real migrations; the counters and the name search index from the real triggers.
 * Reused when it exists, migrated first.
 */
export async function generateDataset(
  path: string,
  documents: number,
  log: (line: string) => void,
): Promise<void> {
  if (existsSync(path)) {
    // Built by an earlier version: brought up to the current schema once, as a server would, and
    // given the batches indexing-status is asked for.
    const store = await openStore({ databaseUrl: path });
    await store.close();
    const db = new Database(path);
    db.prepare(`update documents set batch = ${BATCH_SQL.sqlite} where batch is null`).run();
    db.close();
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  const building = `${path}.building`;
  rmSync(building, { force: true });
  const store = await openStore({ databaseUrl: building });
  await store.close();

  const db = new Database(building);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("foreign_keys = OFF");
  const hasher = new Sha256TokenHasher();
  const insert = (sql: string) => db.prepare(sql);
  db.transaction(() => {
    insert("insert into workspaces values (?, 'Bench', 'normal')").run(ids.workspace);
    insert("insert into members (id, workspace_id, name, role) values (?, ?, 'Ada', 'owner')").run(
      ids.member,
      ids.workspace,
    );
    insert(
      `insert into datasets (id, workspace_id, name, enable_api, built_in_field_enabled, process_rule_id,
       process_rule_mode, process_rule_rules, created_at, description, created_by, updated_by, updated_at)
       values (?, ?, 'Bench', 1, 1, ?, 'custom', ?, ?, 'A benchmark dataset', ?, ?, ?)`,
    ).run(ids.dataset, ids.workspace, ids.field(999), RULES, NOW, ids.member, ids.member, NOW);
    const field = insert(
      "insert into metadata_fields (id, dataset_id, name, type, created_at) values (?, ?, ?, ?, ?)",
    );
    for (let index = 0; index < FIELD_COUNT; index++) {
      field.run(
        ids.field(index),
        ids.dataset,
        `field_${index}`,
        index % 5 === 4 ? "number" : "string",
        NOW + index,
      );
    }
    const tag = insert(
      "insert into tags (id, workspace_id, type, name, created_at) values (?, ?, 'knowledge', ?, ?)",
    );
    for (let index = 0; index < TAG_COUNT; index++)
      tag.run(ids.tag(index), ids.workspace, `tag-${index}`, NOW + index);
    insert(
      `insert into apps (id, workspace_id, name, mode, enable_api, status, description, created_by)
       values (?, ?, 'Bench chat', 'advanced-chat', 1, 'normal', 'A benchmark app', ?)`,
    ).run(ids.app, ids.workspace, ids.member);
    insert(
      `insert into sites values (?, 'Bench', '#1C64F2', 0, 'emoji', '🤖', '#FFEAD5', 'A benchmark app', '', '',
       'Ask…', '', 'en-US', 1, 0)`,
    ).run(ids.app);
    const key = insert("insert into api_keys values (?, ?, ?, ?, ?, ?, ?, null)");
    key.run(
      "bench-knowledge-key",
      "dataset",
      ids.workspace,
      null,
      hasher.hash(KEYS.knowledge),
      "ds-benc",
      NOW,
    );
    key.run("bench-app-key", "app", ids.workspace, ids.app, hasher.hash(KEYS.app), "app-benc", NOW);
    const endUser = insert("insert into end_users values (?, ?, ?)");
    const conversation = insert("insert into conversations values (?, ?, ?, 0)");
    const variable = insert(
      "insert into conversation_variables values (?, ?, 'preference', 'string', '\"tea\"', '', ?, ?)",
    );
    for (let index = 0; index < CONVERSATION_COUNT; index++) {
      endUser.run(ids.endUser(index), ids.app, userOf(index));
      conversation.run(ids.conversation(index), ids.app, ids.endUser(index));
      variable.run(ids.conversation(index), ids.variable, NOW, NOW);
    }
  })();

  const document = insert(
    `insert into documents (id, dataset_id, position, data_source_type, upload_file_id, process_rule_id,
     process_rule_mode, process_rule_rules, name, created_from, created_by, created_at, updated_at, tokens,
     word_count, indexing_status, is_paused, error, enabled, disabled_at, disabled_by, archived, doc_form,
     doc_language, doc_type, completed_at, indexing_latency, summary_index_status, need_summary, display_status)
     values (?, ?, ?, 'upload_file', ?, ?, 'custom', ?, ?, 'api', ?, ?, ?, 120, 90, 'completed', 0, null, 1,
     null, null, 0, 'text_model', 'English', null, ?, 1.5, null, 0, 'available')`,
  );
  const file = insert("insert into upload_files values (?, ?, ?, 2048, 'txt', 'text/plain', ?, ?)");
  const chunk = insert(
    "insert into chunks (id, document_id, position, content, char_count, hit_count) values (?, ?, ?, ?, ?, ?)",
  );
  const value = insert("insert into document_metadata_values values (?, ?, ?)");
  const batch = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index++) {
      const documentId = ids.document(index);
      const name = `document-${index}.txt`;
      file.run(ids.file(index), ids.workspace, name, ids.member, NOW);
      document.run(
        documentId,
        ids.dataset,
        index + 1,
        ids.file(index),
        ids.document(index),
        RULES,
        name,
        ids.member,
        NOW,
        NOW,
        NOW,
      );
      for (let part = 0; part < 2; part++) {
        const content = `Part ${part} of document ${index}: widgets, warranties and the way they are paired.`;
        chunk.run(`${documentId}-${part}`, documentId, part + 1, content, content.length, (index + part) % 7);
      }
      if (index % 10 === 9) continue;
      // 9 of 10 documents hold values, on 5 of the 20 fields, spread so every field is used.
      for (let offset = 0; offset < 5; offset++) {
        const fieldIndex = (index + offset * 4) % FIELD_COUNT;
        value.run(
          documentId,
          ids.field(fieldIndex),
          fieldIndex % 5 === 4 ? String(index % 100) : `value ${index % 50}`,
        );
      }
    }
  });
  const started = Date.now();
  for (let from = 0; from < documents; from += 50_000) {
    batch(from, Math.min(documents, from + 50_000));
    log(
      `  generated ${Math.min(documents, from + 50_000)}/${documents} documents (${Math.round((Date.now() - started) / 1000)} s)`,
    );
  }
  db.prepare(`update documents set batch = ${BATCH_SQL.sqlite}`).run();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  renameSync(building, path);
  for (const suffix of ["-wal", "-shm"]) rmSync(`${building}${suffix}`, { force: true });
}
