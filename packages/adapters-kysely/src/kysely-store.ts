import type { Store } from "@service-api/ports";
import { type Kysely, sql } from "kysely";
import { createKyselyRepositories } from "./create-kysely-repositories.js";
import type { DatabaseSchema } from "./schema.js";

/**
 * A store over a kysely instance whose schema is migrated: the repositories, transactions on one
 * connection, a ping, and `close`, which destroys the instance (and its driver's connections).
 */
export function kyselyStore(db: Kysely<DatabaseSchema>): Store {
  return {
    repositories: createKyselyRepositories(db),
    transaction: (work) => db.transaction().execute((trx) => work(createKyselyRepositories(trx))),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
