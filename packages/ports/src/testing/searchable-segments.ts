import type { Repositories } from "../repositories.js";
import { aDataset, aDocument, aSegment, aWorkspace } from "./fixtures.js";
import { searchAsRetrieved } from "./search-as-retrieved.js";

/**
 * A dataset of one document whose three segments have different lengths and the keyword
 * "delta", so that a length lost (0) or a keyword missed changes every score; and its search for
 * "supersonic delta" (content and keywords), for a migration's test to compare before and after.
 */
export async function seedSearchableSegments(repositories: Repositories) {
  const { workspaces, datasets, documents, segments } = repositories;
  const workspace = aWorkspace();
  await workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await datasets.save(dataset);
  const document = aDocument(dataset.id);
  await documents.save(document);
  const written = ["Supersonic wings", "Supersonic flutter of thin delta wings at speed", "Delta"].map(
    (content, index) => aSegment(document.id, index + 1, { content, keywords: ["delta"] }),
  );
  await segments.replaceForImport(document.id, written, []);
  return {
    datasetId: dataset.id,
    search: (opened: Repositories) =>
      searchAsRetrieved(opened, dataset.id, "supersonic delta", "content_and_keywords"),
  };
}
