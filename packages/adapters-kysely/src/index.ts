export * from "./compiled-read.js";
export * from "./create-kysely-repositories.js";
export * from "./kysely-store.js";
export * from "./migrations/access-revision.js";
export * from "./migrations/document-counters.js";
export * from "./migrations/initial-schema.js";
export * as listingIndexesMigration from "./migrations/listing-indexes.js";
export type * from "./schema.js";
export * from "./store-guard.js";
