import { type ApiKeyKind, type Document, displayPrefixOf, type Site } from "@service-api/domain";
import type { Clock, IdGenerator, Repositories, TokenHasher } from "@service-api/ports";
import type {
  AppInput,
  DatasetInput,
  DocumentInput,
  ImportFile,
  WorkspaceInput,
} from "../format/import-file-schema.js";
import { InvalidImportError } from "../format/issues.js";
import type { ImportSummary } from "./import-summary.js";

export interface WriteContext {
  repositories: Repositories;
  clock: Clock;
  ids: IdGenerator;
  hasher: TokenHasher;
  summary: ImportSummary;
  onDocument: () => void;
}

/** Writes a checked file whose records all have ids. Timestamps the file leaves out keep their stored value. */
export async function writeImport(file: ImportFile, context: WriteContext): Promise<void> {
  for (const [index, workspace] of file.workspaces.entries()) {
    await writeWorkspace(workspace, `workspaces[${index}]`, context);
  }
}

async function writeWorkspace(workspace: WorkspaceInput, at: string, context: WriteContext): Promise<void> {
  const { repositories, summary } = context;
  const workspaceId = workspace.id!;
  await repositories.workspaces.save({ id: workspaceId, name: workspace.name, status: workspace.status });
  summary.workspaces += 1;
  for (const member of workspace.members) {
    await repositories.workspaces.saveMember({ id: member.id!, workspaceId, name: member.name });
  }
  for (const tag of workspace.tags) {
    await repositories.tags.save({ id: tag.id!, workspaceId, type: tag.type, name: tag.name });
  }
  for (const [index, key] of workspace.dataset_api_keys.entries()) {
    await writeKey(key, "dataset", workspaceId, null, `${at}.dataset_api_keys[${index}]`, context);
  }
  const defaultCreator = workspace.members[0]?.id;
  for (const dataset of workspace.datasets) await writeDataset(dataset, workspaceId, defaultCreator, context);
  for (const [index, app] of workspace.apps.entries())
    await writeApp(app, workspaceId, `${at}.apps[${index}]`, context);
}

async function writeKey(
  key: string,
  kind: ApiKeyKind,
  workspaceId: string,
  appId: string | null,
  at: string,
  { repositories, hasher, ids, clock, summary }: WriteContext,
): Promise<void> {
  const tokenHash = key.startsWith("sha256:") ? key.slice("sha256:".length) : hasher.hash(key);
  const existing = await repositories.apiKeys.findByTokenHash(tokenHash);
  if (existing && (existing.workspaceId !== workspaceId || existing.appId !== appId)) {
    throw new InvalidImportError([
      { path: at, message: "this key is already issued for another workspace or app" },
    ]);
  }
  const displayPrefix = key.startsWith("sha256:")
    ? `${kind === "app" ? "app-" : "ds-"}…`
    : displayPrefixOf(key);
  const common = {
    id: existing?.id ?? ids.derive("api-key", tokenHash),
    workspaceId,
    tokenHash,
    displayPrefix: existing?.displayPrefix ?? displayPrefix,
    createdAt: existing?.createdAt ?? clock.nowSeconds(),
    lastUsedAt: existing?.lastUsedAt ?? null,
  };
  await repositories.apiKeys.save(
    appId ? { ...common, kind: "app", appId } : { ...common, kind: "dataset", appId: null },
  );
  summary.apiKeys += 1;
}

async function writeDataset(
  dataset: DatasetInput,
  workspaceId: string,
  defaultCreator: string | undefined,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, summary } = context;
  const datasetId = dataset.id!;
  const existing = await repositories.datasets.findInWorkspace(workspaceId, datasetId);
  const rule = dataset.process_rule;
  await repositories.datasets.save({
    id: datasetId,
    workspaceId,
    name: dataset.name,
    enableApi: dataset.enable_api,
    builtInFieldEnabled: dataset.built_in_field_enabled,
    processRule: rule ? { id: rule.id!, mode: rule.mode, rules: rule.rules } : undefined,
    createdAt: dataset.created_at ?? existing?.createdAt ?? clock.nowSeconds(),
  });
  summary.datasets += 1;
  const storedFields = new Map(
    (await repositories.metadata.listFields(datasetId)).map((field) => [field.id, field]),
  );
  for (const field of dataset.metadata_fields) {
    const createdAt = field.created_at ?? storedFields.get(field.id!)?.createdAt ?? clock.nowSeconds();
    await repositories.metadata.saveField({
      id: field.id!,
      datasetId,
      name: field.name,
      type: field.type,
      createdAt,
    });
  }
  const fieldIds = new Map(dataset.metadata_fields.map((field) => [field.name, field.id!]));
  for (const [position, document] of dataset.documents.entries()) {
    await writeDocument(
      document,
      { workspaceId, datasetId, position: position + 1, defaultCreator, fieldIds },
      context,
    );
  }
  const bindings = dataset.tag_ids.map((tagId) => ({
    id: context.ids.derive("tag-binding", tagId, datasetId),
    workspaceId,
    tagId,
    targetId: datasetId,
    createdAt: clock.nowSeconds(),
  }));
  await repositories.tags.bind(bindings);
}

interface DocumentPlace {
  workspaceId: string;
  datasetId: string;
  /** 1-based place in the file, the default position. */
  position: number;
  defaultCreator: string | undefined;
  fieldIds: Map<string, string>;
}

async function writeDocument(
  input: DocumentInput,
  place: DocumentPlace,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, summary } = context;
  const documentId = input.id!;
  const existing = await repositories.documents.findInDataset(place.datasetId, documentId);
  const createdBy = input.created_by ?? existing?.createdBy ?? place.defaultCreator!;
  const createdAt = input.created_at ?? existing?.createdAt ?? clock.nowSeconds();
  if (input.upload_file) {
    const file = input.upload_file;
    const stored = await repositories.documents.findUploadFile(file.id!);
    await repositories.documents.saveUploadFile(place.workspaceId, {
      id: file.id!,
      name: file.name,
      size: file.size,
      extension: file.extension,
      mimeType: file.mime_type,
      createdBy: file.created_by ?? stored?.createdBy ?? createdBy,
      createdAt: file.created_at ?? stored?.createdAt ?? createdAt,
    });
  }
  const rule = input.process_rule!;
  const document: Document = {
    id: documentId,
    datasetId: place.datasetId,
    position: input.position ?? place.position,
    dataSourceType: input.data_source_type,
    uploadFileId: input.upload_file?.id ?? null,
    processRule: { id: rule.id!, mode: rule.mode, rules: rule.rules },
    name: input.name,
    createdFrom: input.created_from,
    createdBy,
    createdAt,
    updatedAt: input.updated_at !== undefined ? input.updated_at : (existing?.updatedAt ?? null),
    tokens: input.tokens,
    wordCount:
      input.word_count ?? existing?.wordCount ?? input.segments.reduce((sum, s) => sum + s.content.length, 0),
    indexingStatus: input.indexing_status,
    isPaused: input.is_paused,
    error: input.error,
    enabled: input.enabled,
    disabledAt: input.disabled_at,
    disabledBy: input.disabled_by,
    archived: input.archived,
    docForm: input.doc_form,
    docLanguage: input.doc_language,
    docType: input.doc_type,
    completedAt: input.completed_at !== undefined ? input.completed_at : (existing?.completedAt ?? null),
    indexingLatency: input.indexing_latency,
    summaryIndexStatus: input.summary_index_status,
    needSummary: input.need_summary,
  };
  await repositories.documents.save(document);
  const chunks = input.segments.map((segment, index) => ({
    id: segment.id!,
    documentId,
    position: index + 1,
    content: segment.content,
    hitCount: segment.hit_count,
  }));
  await repositories.documents.replaceChunks(documentId, chunks);
  for (const [fieldName, value] of Object.entries(input.metadata)) {
    await repositories.metadata.setValue(documentId, place.fieldIds.get(fieldName)!, String(value));
  }
  summary.documents += 1;
  context.onDocument();
}

async function writeApp(
  app: AppInput,
  workspaceId: string,
  at: string,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, ids, summary } = context;
  const appId = app.id!;
  await repositories.apps.save({
    id: appId,
    workspaceId,
    name: app.name,
    mode: app.mode,
    enableApi: app.enable_api,
    status: app.status,
  });
  summary.apps += 1;
  if (app.site) {
    const { title, ...site } = app.site;
    await repositories.apps.saveSite({ ...siteFromInput(site), appId, title: title ?? app.name });
  }
  for (const [index, key] of app.api_keys.entries()) {
    await writeKey(key, "app", workspaceId, appId, `${at}.api_keys[${index}]`, context);
  }
  for (const conversation of app.conversations) {
    const endUser = (await repositories.endUsers.findBySessionId(appId, conversation.user)) ?? {
      id: ids.derive("end-user", appId, conversation.user),
      appId,
      sessionId: conversation.user,
    };
    await repositories.endUsers.save(endUser);
    const conversationId = conversation.id!;
    await repositories.conversations.save({
      id: conversationId,
      appId,
      endUserId: endUser.id,
      isDeleted: conversation.is_deleted,
    });
    summary.conversations += 1;
    for (const variable of conversation.variables) {
      const stored = await repositories.conversations.findVariable(conversationId, variable.id!);
      const unchanged =
        stored !== undefined && JSON.stringify(stored.value) === JSON.stringify(variable.value);
      await repositories.conversations.saveVariable({
        id: variable.id!,
        conversationId,
        name: variable.name,
        valueType: variable.value_type,
        value: variable.value,
        description: variable.description,
        createdAt: variable.created_at ?? stored?.createdAt ?? clock.nowSeconds(),
        updatedAt: variable.updated_at ?? (unchanged ? stored.updatedAt : clock.nowSeconds()),
      });
    }
  }
}

function siteFromInput(site: Omit<NonNullable<AppInput["site"]>, "title">): Omit<Site, "appId" | "title"> {
  return {
    chatColorTheme: site.chat_color_theme,
    chatColorThemeInverted: site.chat_color_theme_inverted,
    iconType: site.icon_type,
    icon: site.icon,
    iconBackground: site.icon_background,
    description: site.description,
    copyright: site.copyright,
    privacyPolicy: site.privacy_policy,
    inputPlaceholder: site.input_placeholder,
    customDisclaimer: site.custom_disclaimer,
    defaultLanguage: site.default_language,
    showWorkflowSteps: site.show_workflow_steps,
    useIconAsAnswerIcon: site.use_icon_as_answer_icon,
  };
}
