import type { EndUser } from "@service-api/domain";
import type { EndUserRepository } from "@service-api/ports";
import type { Kysely } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { DatabaseSchema } from "../schema.js";
import { updateAllBut } from "./rows.js";

const endUserBySession = compiledRead((db, appId: string, sessionId: string) =>
  db.selectFrom("end_users").selectAll().where("app_id", "=", appId).where("session_id", "=", sessionId),
);

export class KyselyEndUserRepository implements EndUserRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async save(endUser: EndUser): Promise<"owned_elsewhere" | undefined> {
    const row = { id: endUser.id, app_id: endUser.appId, session_id: endUser.sessionId };
    const written = await this.db
      .insertInto("end_users")
      .values(row)
      .onConflict((conflict) =>
        conflict
          .column("id")
          .doUpdateSet(updateAllBut(row, "id"))
          .whereRef("end_users.app_id", "=", "excluded.app_id"),
      )
      .returning("id")
      .execute();
    return written.length === 0 ? "owned_elsewhere" : undefined;
  }

  async findBySessionId(appId: string, sessionId: string): Promise<EndUser | undefined> {
    const [row] = await endUserBySession(this.db, appId, sessionId);
    return row && { id: row.id, appId: row.app_id, sessionId: row.session_id };
  }

  async findById(id: string): Promise<EndUser | undefined> {
    const row = await this.db.selectFrom("end_users").selectAll().where("id", "=", id).executeTakeFirst();
    return row && { id: row.id, appId: row.app_id, sessionId: row.session_id };
  }
}
