import { type Kysely, sql } from "kysely";

/**
 * The workspace a deleted dataset moves to, at once, before its rows are purged: every read is
 * scoped by workspace, so nothing of it is seen again. Made by the first delete. No key can name
 * it (its status is `archived`, and no key is ever issued for it); lists of workspaces leave it out.
 */
export const TRASH_WORKSPACE_ID = "00000000-0000-4000-8000-00000000dead";
export const TRASH_WORKSPACE = { id: TRASH_WORKSPACE_ID, name: "Deleted datasets", status: "archived" };

/**
 * Migration 0008 (SQLite) / 0016 (PostgreSQL), the part both stores share: datasets made and
 * changed by the API (their indexing technique, permission and retrieval model; names unique per
 * workspace by an index, earlier duplicates renamed "name (2)"…), and the jobs background workers
 * lease (a deleted dataset's purge first).
 */
export async function addDatasetsByApi(
  db: Kysely<unknown>,
  types: { text: string; integer: string },
): Promise<void> {
  const { text, integer } = types;
  const add = (table: string, column: string, type: string, rest = "") =>
    sql.raw(`alter table ${table} add column ${column} ${type} ${rest}`).execute(db);

  // What the dataset object showed for every dataset before: economy, all team members.
  await add("datasets", "indexing_technique", text);
  await add("datasets", "permission", text, "not null default 'all_team_members'");
  await add("datasets", "retrieval_model", text);
  await sql`update datasets set indexing_technique = 'economy'`.execute(db);
  await renameDuplicateDatasets(db);
  await sql`create unique index datasets_name_per_workspace on datasets (workspace_id, name)`.execute(db);

  await sql
    .raw(`create table jobs (
      id ${text} primary key,
      kind ${text} not null,
      subject_id ${text} not null,
      run_after ${integer} not null,
      lease_owner ${text},
      lease_until ${integer},
      attempts ${integer} not null default 0,
      created_at ${integer} not null
    )`)
    .execute(db);
  await sql`create index jobs_due on jobs (kind, run_after, id)`.execute(db);
  await sql`create index jobs_by_subject on jobs (subject_id)`.execute(db);
}

export async function dropDatasetsByApi(db: Kysely<unknown>): Promise<void> {
  // The release before knows no trash: what waits in it for its purge goes now (its documents,
  // fields and the rest by cascade), else it would show as a workspace of its own.
  await sql`delete from datasets where workspace_id = ${TRASH_WORKSPACE_ID}`.execute(db);
  await sql`delete from workspaces where id = ${TRASH_WORKSPACE_ID}`.execute(db);
  await sql`drop table jobs`.execute(db);
  await sql`drop index datasets_name_per_workspace`.execute(db);
  for (const column of ["retrieval_model", "permission", "indexing_technique"])
    await sql.raw(`alter table datasets drop column ${column}`).execute(db);
}

/**
 * Earlier imports let two datasets of a workspace share a name; the later ones (by id) become
 * "name (2)", "name (3)"…, each the first such name the workspace does not hold yet.
 */
async function renameDuplicateDatasets(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; workspace_id: string; name: string; rank: number }>`
    select id, workspace_id, name, rank from (
      select id, workspace_id, name,
        row_number() over (partition by workspace_id, name order by id) as rank from datasets
    ) ranked order by workspace_id, name, id`.execute(db);
  const taken = new Set(rows.map((row) => `${row.workspace_id}\u0000${row.name}`));
  for (const { id, workspace_id: workspaceId, name, rank } of rows) {
    if (Number(rank) === 1) continue;
    let suffix = 2;
    while (taken.has(`${workspaceId}\u0000${name} (${suffix})`)) suffix += 1;
    const renamed = `${name} (${suffix})`;
    taken.add(`${workspaceId}\u0000${renamed}`);
    await sql`update datasets set name = ${renamed} where id = ${id}`.execute(db);
  }
}
