import type { EndUser } from "@service-api/domain";
import type { EndUserRepository } from "@service-api/ports";
import type { Kysely } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { DatabaseSchema } from "../schema.js";
import { saveOwnedRow } from "./owned-rows.js";

const endUserBySession = compiledRead((db, appId: string, sessionId: string) =>
  db.selectFrom("end_users").selectAll().where("app_id", "=", appId).where("session_id", "=", sessionId),
);

export class KyselyEndUserRepository implements EndUserRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async save(endUser: EndUser): Promise<"owned_elsewhere" | undefined> {
    const row = { id: endUser.id, app_id: endUser.appId, session_id: endUser.sessionId };
    return saveOwnedRow(this.db, "end_users", row, "app_id");
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
