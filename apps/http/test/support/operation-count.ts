/** How many operations the API serves (the OpenAPI document's, and `/docs`'): one number for every test that counts them. */
export const OPERATION_COUNT = 52;
