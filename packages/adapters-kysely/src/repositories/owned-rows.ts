import type { Insertable, Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import { updateAllBut } from "./rows.js";

/**
 * Saves `row` by its id, but never moves it: a stored row of another owner (the `owner` column
 * differs) is left as it is, and the answer says so. One statement, so no writer slips in between.
 */
export async function saveOwnedRow<Table extends keyof DatabaseSchema & string>(
  db: Kysely<DatabaseSchema>,
  table: Table,
  row: Insertable<DatabaseSchema[Table]> & { id: string },
  owner: keyof DatabaseSchema[Table] & string,
): Promise<"owned_elsewhere" | undefined> {
  // biome-ignore lint/suspicious/noExplicitAny: kysely cannot type a table chosen at run time.
  const untyped = db as Kysely<any>;
  const written = await untyped
    .insertInto(table as string)
    .values(row)
    .onConflict((conflict) =>
      conflict
        .column("id")
        .doUpdateSet(updateAllBut(row, "id"))
        .whereRef(`${table}.${owner}`, "=", `excluded.${owner}`),
    )
    .returning("id")
    .execute();
  return written.length === 0 ? "owned_elsewhere" : undefined;
}
