/** Examples for the OpenAPI document, taken from the demo workspace's answers; the tests check them against their schemas. */

/** The demo dataset's fields (listMetadataFields). */
export const FIELD_LIST_EXAMPLE = {
  doc_metadata: [
    { id: "401c47eb-a9be-5a32-9c6b-62ba04d6cd9b", name: "author", type: "string", count: 2 },
    { id: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a12", name: "category", type: "string", count: 2 },
    { id: "80932691-c06b-5377-85b2-97651e3f591d", name: "published", type: "time", count: 1 },
    { id: "built-in", name: "document_name", type: "string", count: 3 },
    { id: "built-in", name: "uploader", type: "string", count: 3 },
    { id: "built-in", name: "upload_date", type: "time", count: 3 },
    { id: "built-in", name: "last_update_date", type: "time", count: 3 },
    { id: "built-in", name: "source", type: "string", count: 3 },
  ],
  built_in_field_enabled: true,
};

/** The five built-in fields (getBuiltInMetadataFields). */
export const BUILT_IN_FIELDS_EXAMPLE = {
  fields: [
    { name: "document_name", type: "string" },
    { name: "uploader", type: "string" },
    { name: "upload_date", type: "time" },
    { name: "last_update_date", type: "time" },
    { name: "source", type: "string" },
  ],
};
