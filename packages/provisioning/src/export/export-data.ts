import type { Dataset, Workspace } from "@service-api/domain";
import type { Repositories, Store } from "@service-api/ports";
import type { ImportFileInput } from "../format/import-file-schema.js";
import { exportedApp } from "./exported-app.js";
import {
  DEFAULT_EXPORT_PAGING,
  type DocumentOutput,
  type ExportPaging,
  exportedDocuments,
  processRuleOutput,
} from "./exported-documents.js";
import { Streamed, settled, type WriteText, writeJson } from "./streamed-json.js";

export type { WriteText } from "./streamed-json.js";

/** What an export wrote. */
export interface ExportSummary {
  workspaces: number;
  documents: number;
}

/**
 * Writes the whole store in the import format, every field explicit and keys as their hashes.
 * Importing the result into an empty store and exporting again gives the same document. Every
 * read is made in one snapshot of the store (`Store.snapshot`), so the export is one consistent
 * state however the data changes while it runs: on SQLite the snapshot reads on a connection of
 * its own, on PostgreSQL it holds one of the pool's, for the export's whole duration.
 */
export class ExportData {
  constructor(
    private readonly store: Store,
    private readonly paging: ExportPaging = DEFAULT_EXPORT_PAGING,
  ) {}

  /** The export as one object: for stores small enough to hold in memory (tests, small embeddings). */
  async execute(): Promise<ImportFileInput> {
    return this.store.snapshot(
      async (repositories) => (await settled(this.#export(repositories, counting()))) as ImportFileInput,
    );
  }

  /**
   * Writes the export as JSON text, piece by piece: exactly `JSON.stringify(execute(), null, 2)`
   * and a newline, with documents read a page at a time, so no store is too large for it.
   */
  async writeTo(write: WriteText): Promise<ExportSummary> {
    return this.store.snapshot(async (repositories) => {
      const summary = counting();
      await writeJson(this.#export(repositories, summary), write);
      await write("\n");
      return summary;
    });
  }

  #export(repositories: Repositories, summary: ExportSummary) {
    const context = { repositories, summary, paging: this.paging };
    return {
      version: 1,
      workspaces: new Streamed(async function* () {
        for (const workspace of await repositories.workspaces.list()) {
          summary.workspaces += 1;
          yield await exportedWorkspace(context, workspace);
        }
      }),
    };
  }
}

/** What an export reads with, and what it counts. */
interface ExportContext {
  repositories: Repositories;
  summary: ExportSummary;
  paging: ExportPaging;
}

const counting = (): ExportSummary => ({ workspaces: 0, documents: 0 });

async function exportedWorkspace(context: ExportContext, workspace: Workspace) {
  const { workspaces, apiKeys, tags, datasets, apps } = context.repositories;
  const keys = await apiKeys.list({ workspaceId: workspace.id });
  return {
    id: workspace.id,
    name: workspace.name,
    status: workspace.status,
    members: (await workspaces.listMembers(workspace.id)).map(({ id, name, role }) => ({ id, name, role })),
    dataset_api_keys: keys.filter((key) => key.kind === "dataset").map((key) => `sha256:${key.tokenHash}`),
    tags: (await tags.listInWorkspace(workspace.id)).map(({ id, name, type, createdAt }) => ({
      id,
      name,
      type,
      created_at: createdAt,
    })),
    datasets: new Streamed(async function* () {
      for (const dataset of await datasets.listInWorkspace(workspace.id))
        yield await exportedDataset(context, dataset);
    }),
    apps: new Streamed(async function* () {
      for (const app of await apps.listInWorkspace(workspace.id))
        yield await exportedApp(context.repositories, app);
    }),
  };
}

async function exportedDataset({ repositories, summary, paging }: ExportContext, dataset: Dataset) {
  const { metadata, tags } = repositories;
  return {
    id: dataset.id,
    name: dataset.name,
    description: dataset.description,
    created_by: dataset.createdBy,
    updated_by: dataset.updatedBy,
    enable_api: dataset.enableApi,
    built_in_field_enabled: dataset.builtInFieldEnabled,
    indexing_technique: dataset.indexingTechnique,
    permission: dataset.permission,
    retrieval_model: dataset.retrievalModel,
    created_at: dataset.createdAt,
    updated_at: dataset.updatedAt,
    tag_ids: await tags.boundTagIds(dataset.id),
    ...(dataset.processRule && { process_rule: processRuleOutput(dataset.processRule) }),
    metadata_fields: (await metadata.listFields(dataset.id)).map(({ id, name, type, createdAt }) => ({
      id,
      name,
      type,
      created_at: createdAt,
    })),
    documents: new Streamed<DocumentOutput>(async function* () {
      for await (const document of exportedDocuments(repositories, dataset.id, paging)) {
        summary.documents += 1;
        yield document;
      }
    }),
  };
}
