import { readDocumentTitleAndMetadata } from "./direct-calls.js";

/**
 * Reads a document without HTTP: `node dist/read-document.js <dataset id> <document id>`, with the
 * knowledge key in SERVICE_API_KEY. Prints the document's name and metadata as JSON.
 */
const [datasetId, documentId] = process.argv.slice(2);
const key = process.env.SERVICE_API_KEY;
if (!datasetId || !documentId || !key) {
  console.error("Usage: SERVICE_API_KEY=ds-… node dist/read-document.js <dataset id> <document id>");
  process.exit(2);
}
const document = await readDocumentTitleAndMetadata(
  process.env.DATABASE_URL ?? "file:./data/kb.sqlite",
  key,
  datasetId,
  documentId,
);
console.log(JSON.stringify(document));
