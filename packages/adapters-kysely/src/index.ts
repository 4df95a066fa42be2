export * from "./create-kysely-repositories.js";
export * from "./kysely-store.js";
export type * from "./schema.js";
