import {
  listingIndexesMigration,
  metadataFieldOrderMigration,
  rateLimitCountersMigration,
} from "@service-api/adapters-kysely";
import type { Migration, MigrationProvider } from "kysely/migration";
import * as initialSchema from "./0001-initial-schema.js";
import * as documentCounters from "./0003-document-counters.js";
import * as accessRevision from "./0004-access-revision.js";
import * as management from "./0006-management.js";
import * as datasetsByApi from "./0008-datasets-by-api.js";
import * as uploadFileContents from "./0009-upload-file-contents.js";
import * as documentsByText from "./0010-documents-by-text.js";
import * as serviceSecrets from "./0011-service-secrets.js";
import * as searchIndex from "./0012-search-index.js";
import * as chunkContents from "./0013-chunk-contents.js";
import * as searchUnitKeys from "./0014-search-unit-keys.js";
import * as searchLookups from "./0015-search-lookups.js";

/** Every migration, by name, in order. Names never change once released. */
const MIGRATIONS: Record<string, Migration> = {
  "0001-initial-schema": initialSchema,
  "0002-listing-indexes": listingIndexesMigration,
  "0003-document-counters": documentCounters,
  "0004-access-revision": accessRevision,
  "0005-rate-limit-counters": rateLimitCountersMigration,
  "0006-management": management,
  "0007-metadata-field-order": metadataFieldOrderMigration,
  "0008-datasets-by-api": datasetsByApi,
  "0009-upload-file-contents": uploadFileContents,
  "0010-documents-by-text": documentsByText,
  "0011-service-secrets": serviceSecrets,
  "0012-search-index": searchIndex,
  "0013-chunk-contents": chunkContents,
  "0014-search-unit-keys": searchUnitKeys,
  "0015-search-lookups": searchLookups,
};

export const sqliteMigrations: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
