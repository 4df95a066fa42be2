import { type Kysely, sql } from "kysely";

/**
 * The sequence `earlyLockRelease` flushes with: `setval` on it writes to the WAL under a
 * transaction id, so that transaction's commit waits for the WAL flush (and for synchronous
 * standbys) past every commit before it. Sequences are not transactional: callers never wait for
 * each other's `setval`, and their commits share flushes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence commit_flush_marks`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop sequence commit_flush_marks`.execute(db);
}
