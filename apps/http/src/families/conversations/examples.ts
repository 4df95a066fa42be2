/** Examples for the OpenAPI document, taken from the demo workspace's answers; the tests check them against their schemas. */

/** A page of two variables (getConversationVariables). */
export const VARIABLE_PAGE_EXAMPLE = {
  limit: 2,
  has_more: true,
  data: [
    {
      id: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a41",
      name: "preferred_language",
      value_type: "string",
      value: "English",
      description: "Language to answer in",
      created_at: 1767225600,
      updated_at: 1767225600,
    },
    {
      id: "ff4bf19b-03dc-5734-8b56-f8ce6e3d3fa0",
      name: "open_tickets",
      value_type: "number",
      value: "2",
      description: "Tickets still open",
      created_at: 1767225601,
      updated_at: 1767225600,
    },
  ],
};
