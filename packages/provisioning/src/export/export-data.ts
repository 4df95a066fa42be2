import type { App, Dataset, Document, ProcessRule, Workspace } from "@service-api/domain";
import type { Repositories } from "@service-api/ports";
import type { ImportFileInput } from "../format/import-file-schema.js";

type WorkspaceOutput = ImportFileInput["workspaces"][number];
type DatasetOutput = NonNullable<WorkspaceOutput["datasets"]>[number];
type DocumentOutput = NonNullable<DatasetOutput["documents"]>[number];
type AppOutput = NonNullable<WorkspaceOutput["apps"]>[number];

const rule = ({ id, mode, rules }: ProcessRule) => ({ id, mode, rules });

/**
 * Writes the whole store in the import format, every field explicit and keys as their hashes.
 * Importing the result into an empty store and exporting again gives the same document.
 */
export class ExportData {
  constructor(private readonly repositories: Repositories) {}

  async execute(): Promise<ImportFileInput> {
    const workspaces = await this.repositories.workspaces.list();
    return {
      version: 1,
      workspaces: await Promise.all(workspaces.map((workspace) => this.#workspace(workspace))),
    };
  }

  async #workspace(workspace: Workspace): Promise<WorkspaceOutput> {
    const { workspaces, apiKeys, tags, datasets, apps } = this.repositories;
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
      datasets: await Promise.all(
        (await datasets.listInWorkspace(workspace.id)).map((dataset) => this.#dataset(dataset)),
      ),
      apps: await Promise.all((await apps.listInWorkspace(workspace.id)).map((app) => this.#app(app))),
    };
  }

  async #dataset(dataset: Dataset): Promise<DatasetOutput> {
    const { metadata, documents, tags } = this.repositories;
    return {
      id: dataset.id,
      name: dataset.name,
      description: dataset.description,
      created_by: dataset.createdBy,
      updated_by: dataset.updatedBy,
      enable_api: dataset.enableApi,
      built_in_field_enabled: dataset.builtInFieldEnabled,
      created_at: dataset.createdAt,
      updated_at: dataset.updatedAt,
      tag_ids: await tags.boundTagIds(dataset.id),
      ...(dataset.processRule && { process_rule: rule(dataset.processRule) }),
      metadata_fields: (await metadata.listFields(dataset.id)).map(({ id, name, type, createdAt }) => ({
        id,
        name,
        type,
        created_at: createdAt,
      })),
      documents: await Promise.all(
        (await documents.listInDataset(dataset.id)).map((document) => this.#document(document)),
      ),
    };
  }

  async #document(document: Document): Promise<DocumentOutput> {
    const { documents, metadata } = this.repositories;
    const file = document.uploadFileId ? await documents.findUploadFile(document.uploadFileId) : undefined;
    const values = await metadata.valuesOf(document.id);
    return {
      id: document.id,
      name: document.name,
      position: document.position,
      data_source_type: document.dataSourceType,
      indexing_status: document.indexingStatus,
      is_paused: document.isPaused,
      enabled: document.enabled,
      disabled_at: document.disabledAt,
      disabled_by: document.disabledBy,
      archived: document.archived,
      archived_at: document.archivedAt,
      archived_by: document.archivedBy,
      doc_form: document.docForm,
      doc_language: document.docLanguage,
      doc_type: document.docType,
      created_from: document.createdFrom,
      created_by: document.createdBy,
      created_at: document.createdAt,
      updated_at: document.updatedAt,
      completed_at: document.completedAt,
      indexing_latency: document.indexingLatency,
      tokens: document.tokens,
      word_count: document.wordCount,
      error: document.error,
      summary_index_status: document.summaryIndexStatus,
      need_summary: document.needSummary,
      ...(file && {
        upload_file: {
          id: file.id,
          name: file.name,
          size: file.size,
          extension: file.extension,
          mime_type: file.mimeType,
          created_by: file.createdBy,
          created_at: file.createdAt,
        },
      }),
      process_rule: rule(document.processRule),
      metadata: Object.fromEntries(values.map((entry) => [entry.name, entry.value ?? ""])),
      segments: (await documents.listChunks(document.id)).map(({ id, content, hitCount }) => ({
        id,
        content,
        hit_count: hitCount,
      })),
    };
  }

  async #app(app: App): Promise<AppOutput> {
    const { apps, apiKeys, conversations, endUsers } = this.repositories;
    const site = await apps.findSite(app.id);
    const output: AppOutput = {
      id: app.id,
      name: app.name,
      mode: app.mode,
      enable_api: app.enableApi,
      status: app.status,
      description: app.description,
      created_by: app.createdBy,
      tag_ids: await this.repositories.tags.boundTagIds(app.id),
      api_keys: (await apiKeys.list({ appId: app.id })).map((key) => `sha256:${key.tokenHash}`),
      conversations: [],
    };
    if (site) {
      output.site = {
        title: site.title,
        chat_color_theme: site.chatColorTheme,
        chat_color_theme_inverted: site.chatColorThemeInverted,
        icon_type: site.iconType,
        icon: site.icon,
        icon_background: site.iconBackground,
        description: site.description,
        copyright: site.copyright,
        privacy_policy: site.privacyPolicy,
        input_placeholder: site.inputPlaceholder,
        custom_disclaimer: site.customDisclaimer,
        default_language: site.defaultLanguage,
        show_workflow_steps: site.showWorkflowSteps,
        use_icon_as_answer_icon: site.useIconAsAnswerIcon,
      };
    }
    for (const conversation of await conversations.listInApp(app.id)) {
      const endUser = await endUsers.findById(conversation.endUserId);
      output.conversations?.push({
        id: conversation.id,
        user: endUser?.sessionId ?? conversation.endUserId,
        is_deleted: conversation.isDeleted,
        variables: (await conversations.listVariables(conversation.id)).map((variable) => ({
          id: variable.id,
          name: variable.name,
          value_type: variable.valueType,
          value: variable.value,
          description: variable.description,
          created_at: variable.createdAt,
          updated_at: variable.updatedAt,
        })),
      });
    }
    return output;
  }
}
