import { type Kysely, sql } from "kysely";

/**
 * pg_trgm's GIN operator class, qualified by the schema the extension lives in (installed by
 * migration 0006), for an index's column: `content ${await trigramOperatorClass(db)}`.
 */
export async function trigramOperatorClass(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`
    select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(
    db,
  );
  return `${rows[0]!.schema}.gin_trgm_ops`;
}
