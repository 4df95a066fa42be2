import { type Kysely, sql } from "kysely";
import { CHUNK_KEYS_PER_DOCUMENT } from "../chunk-search-keys.js";

/**
 * The chunk list's keyword filter, served by an index: an FTS5 trigram table of the chunks'
 * contents (contentless: it keeps the trigrams, not a copy of the text). Its rowids are stable keys
 * (`chunk_search_keys`; a chunk's own rowid may change on VACUUM), numbered per document from its
 * name-search key times `CHUNK_KEYS_PER_DOCUMENT` (migration 0006), so one document's matches are a rowid range FTS5
 * seeks to, whatever other documents hold. Kept by row triggers, in the writing transaction.
 */
const BLOCK = CHUNK_KEYS_PER_DOCUMENT;
const first = (document: string) => `(${document}.seq * ${BLOCK})`;
const STATEMENTS = [
  `create table chunk_search_keys (seq integer primary key, chunk_id text not null unique)`,
  `create virtual table chunk_contents using fts5(content, content = '', contentless_delete = 1, tokenize = 'trigram')`,
  `insert into chunk_search_keys (seq, chunk_id)
     select ${first("d")} + row_number() over (partition by c.document_id order by c.position, c.id), c.id
     from chunks c join document_search_keys d on d.document_id = c.document_id`,
  `insert into chunk_contents (rowid, content)
     select k.seq, c.content from chunk_search_keys k join chunks c on c.id = k.chunk_id`,
  `create trigger chunk_contents_insert after insert on chunks begin
     insert into chunk_search_keys (seq, chunk_id)
       select coalesce(
         (select max(k.seq) + 1 from chunk_search_keys k
          where k.seq between ${first("d")} and ${first("d")} + ${BLOCK - 1}),
         ${first("d")} + 1), new.id
       from document_search_keys d where d.document_id = new.document_id;
     insert into chunk_contents (rowid, content)
       values ((select seq from chunk_search_keys where chunk_id = new.id), new.content);
   end`,
  `create trigger chunk_contents_delete after delete on chunks begin
     delete from chunk_contents where rowid = (select seq from chunk_search_keys where chunk_id = old.id);
     delete from chunk_search_keys where chunk_id = old.id;
   end`,
  `create trigger chunk_contents_update after update of content on chunks when old.content is not new.content begin
     delete from chunk_contents where rowid = (select seq from chunk_search_keys where chunk_id = new.id);
     insert into chunk_contents (rowid, content)
       values ((select seq from chunk_search_keys where chunk_id = new.id), new.content);
   end`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ["chunk_contents_update", "chunk_contents_delete", "chunk_contents_insert"])
    await sql.raw(`drop trigger ${name}`).execute(db);
  await sql`drop table chunk_contents`.execute(db);
  await sql`drop table chunk_search_keys`.execute(db);
}
