import type { SecretRepository } from "@service-api/ports";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";

/** Secrets in `service_secrets`: the primary key settles a race, and the row stored first is read back. */
export class KyselySecretRepository implements SecretRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async ensure(name: string, candidate: string): Promise<string> {
    await this.db
      .insertInto("service_secrets")
      .values({ name, value: candidate })
      .onConflict((conflict) => conflict.column("name").doNothing())
      .execute();
    const row = await this.db
      .selectFrom("service_secrets")
      .select("value")
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    return row.value;
  }
}
