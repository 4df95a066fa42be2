/** Examples for the OpenAPI document, taken from the demo workspace's answers; the tests check them against their schemas. */

/** A dataset's tags (queryDatasetTags). */
export const DATASET_TAGS_EXAMPLE = {
  data: [{ id: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a21", name: "product" }],
  total: 1,
};
