import {
  listingIndexesMigration,
  metadataFieldOrderMigration,
  rateLimitCountersMigration,
} from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import * as initialSchema from "./0001-initial-schema.js";
import * as documentCounters from "./0003-document-counters.js";
import * as accessRevision from "./0004-access-revision.js";
import * as management from "./0006-management.js";
import * as accessNotifications from "./0008-access-notifications.js";
import * as fieldCountSlots from "./0009-field-count-slots.js";
import * as idCollation from "./0010-id-collation.js";
import * as valueWrites from "./0011-value-writes.js";
import * as countsAtCommit from "./0012-counts-at-commit.js";
import * as commitFlushMarks from "./0013-commit-flush-marks.js";
import * as valueWritePlans from "./0014-value-write-plans.js";
import * as counterLockOrder from "./0015-counter-lock-order.js";
import * as datasetsByApi from "./0016-datasets-by-api.js";
import * as uploadFileContents from "./0017-upload-file-contents.js";
import * as documentsByText from "./0018-documents-by-text.js";
import * as serviceSecrets from "./0019-service-secrets.js";
import * as searchIndex from "./0020-search-index.js";
import * as chunkContents from "./0021-chunk-contents.js";
import * as searchUnitKeys from "./0022-search-unit-keys.js";
import * as searchLookups from "./0023-search-lookups.js";

/** Every migration, by name, in order. Names never change once released. */
const MIGRATIONS: Record<string, Migration> = {
  "0001-initial-schema": initialSchema,
  "0002-listing-indexes": listingIndexesMigration,
  "0003-document-counters": documentCounters,
  "0004-access-revision": accessRevision,
  "0005-rate-limit-counters": rateLimitCountersMigration,
  "0006-management": management,
  "0007-metadata-field-order": metadataFieldOrderMigration,
  "0008-access-notifications": accessNotifications,
  "0009-field-count-slots": fieldCountSlots,
  "0010-id-collation": idCollation,
  "0011-value-writes": valueWrites,
  "0012-counts-at-commit": countsAtCommit,
  "0013-commit-flush-marks": commitFlushMarks,
  "0014-value-write-plans": valueWritePlans,
  "0015-counter-lock-order": counterLockOrder,
  "0016-datasets-by-api": datasetsByApi,
  "0017-upload-file-contents": uploadFileContents,
  "0018-documents-by-text": documentsByText,
  "0019-service-secrets": serviceSecrets,
  "0020-search-index": searchIndex,
  "0021-chunk-contents": chunkContents,
  "0022-search-unit-keys": searchUnitKeys,
  "0023-search-lookups": searchLookups,
};

export const postgresMigrations: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};

/** A migrator of the schema `db` works in: kysely looks for its bookkeeping tables in every schema. */
export async function migratorOf<DB>(db: Kysely<DB>): Promise<Migrator> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return new Migrator({ db, provider: postgresMigrations, migrationTableSchema: rows[0]?.schema });
}
