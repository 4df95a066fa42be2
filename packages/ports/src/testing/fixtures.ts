import type {
  ApiKey,
  App,
  ChildChunk,
  Chunk,
  Conversation,
  ConversationVariable,
  Dataset,
  Document,
  EndUser,
  Member,
  MetadataField,
  Segment,
  Site,
  Tag,
  UploadFile,
  Workspace,
} from "@service-api/domain";

/** Sample records for tests: realistic defaults, fresh UUIDs, any field overridable. */
const id = () => globalThis.crypto.randomUUID();

export const aWorkspace = (over: Partial<Workspace> = {}): Workspace => ({
  id: id(),
  name: "Acme",
  status: "normal",
  ...over,
});

export const aMember = (workspaceId: string, over: Partial<Member> = {}): Member => ({
  id: id(),
  workspaceId,
  name: "Ada Lovelace",
  role: "normal",
  ...over,
});

/** Dataset names are unique per workspace: each sample has its own ("Handbook 1", "Handbook 2"…). */
let datasetsMade = 0;

export const aDataset = (workspaceId: string, over: Partial<Dataset> = {}): Dataset => ({
  id: id(),
  workspaceId,
  name: `Handbook ${++datasetsMade}`,
  enableApi: true,
  builtInFieldEnabled: false,
  processRule: { id: id(), mode: "automatic", rules: {} },
  description: "",
  indexingTechnique: "economy",
  permission: "all_team_members",
  retrievalModel: null,
  createdBy: null,
  updatedBy: null,
  createdAt: 1_700_000_000,
  updatedAt: over.createdAt ?? 1_700_000_000,
  ...over,
});

export const anUploadFile = (createdBy: string, over: Partial<UploadFile> = {}): UploadFile => ({
  id: id(),
  name: "guide.txt",
  size: 2048,
  extension: "txt",
  mimeType: "text/plain",
  createdBy,
  createdAt: 1_700_000_000,
  ...over,
});

export const aDocument = (datasetId: string, over: Partial<Document> = {}): Document => ({
  id: id(),
  datasetId,
  position: 1,
  dataSourceType: "upload_file",
  uploadFileId: null,
  processRule: {
    id: id(),
    mode: "custom",
    rules: {
      pre_processing_rules: [{ id: "remove_extra_spaces", enabled: true }],
      segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 50 },
    },
  },
  name: "guide.txt",
  createdFrom: "api",
  createdBy: id(),
  createdAt: 1_700_000_000,
  updatedAt: 1_700_000_100,
  tokens: 512,
  wordCount: 300,
  indexingStatus: "completed",
  isPaused: false,
  error: null,
  enabled: true,
  disabledAt: null,
  disabledBy: null,
  archived: false,
  archivedAt: null,
  archivedBy: null,
  docForm: "text_model",
  docLanguage: "English",
  docType: null,
  completedAt: 1_700_000_060,
  indexingLatency: 60,
  summaryIndexStatus: null,
  needSummary: false,
  batch: null,
  processingStartedAt: null,
  parsingCompletedAt: null,
  cleaningCompletedAt: null,
  splittingCompletedAt: null,
  pausedAt: null,
  stoppedAt: null,
  ...over,
});

export const aChunk = (documentId: string, over: Partial<Chunk> = {}): Chunk => ({
  id: id(),
  documentId,
  position: 1,
  content: "A chunk of text.",
  hitCount: 0,
  ...over,
});

/** A completed segment as indexing writes it (its `wordCount` counts its content's code points). */
export const aSegment = (documentId: string, position: number, over: Partial<Segment> = {}): Segment => ({
  id: id(),
  documentId,
  position,
  content: `Segment ${position}: ünïcode 👋`,
  hitCount: 0,
  answer: null,
  wordCount: 20,
  tokens: 0,
  keywords: ["alpha", "beta"],
  indexNodeId: id(),
  indexNodeHash: "ab".repeat(32),
  enabled: true,
  disabledAt: null,
  disabledBy: null,
  status: "completed",
  createdBy: "member",
  createdAt: 1_800_000_000,
  updatedAt: 1_800_000_000,
  updatedBy: null,
  indexingAt: 1_800_000_000,
  completedAt: 1_800_000_001,
  error: null,
  stoppedAt: null,
  ...over,
});

export const aChildChunk = (
  segment: Segment,
  position: number,
  over: Partial<ChildChunk> = {},
): ChildChunk => ({
  id: id(),
  segmentId: segment.id,
  documentId: segment.documentId,
  position,
  content: `child ${position} of ${segment.position}`,
  wordCount: 12,
  indexNodeId: id(),
  indexNodeHash: "cd".repeat(32),
  type: "automatic",
  createdBy: "member",
  createdAt: 1_800_000_000,
  updatedAt: 1_800_000_000,
  updatedBy: null,
  ...over,
});

export const aMetadataField = (datasetId: string, over: Partial<MetadataField> = {}): MetadataField => ({
  id: id(),
  datasetId,
  name: `field_${id().slice(0, 8)}`,
  type: "string",
  createdAt: 1_700_000_000,
  ...over,
});

export const aTag = (workspaceId: string, over: Partial<Tag> = {}): Tag => ({
  id: id(),
  workspaceId,
  type: "knowledge",
  name: `tag-${id().slice(0, 8)}`,
  createdAt: 1_700_000_000,
  ...over,
});

export const anApp = (workspaceId: string, over: Partial<App> = {}): App => ({
  id: id(),
  workspaceId,
  name: "Support bot",
  mode: "advanced-chat",
  enableApi: true,
  status: "normal",
  description: "",
  createdBy: null,
  ...over,
});

export const aSite = (appId: string, over: Partial<Site> = {}): Site => ({
  appId,
  title: "Support",
  chatColorTheme: "#4A90D9",
  chatColorThemeInverted: false,
  iconType: "emoji",
  icon: "🤖",
  iconBackground: "#FFFFFF",
  description: "Answers questions about our products.",
  copyright: "2026 Acme",
  privacyPolicy: "https://example.com/privacy",
  inputPlaceholder: null,
  customDisclaimer: "",
  defaultLanguage: "en-US",
  showWorkflowSteps: false,
  useIconAsAnswerIcon: true,
  ...over,
});

export const anEndUser = (appId: string, over: Partial<EndUser> = {}): EndUser => ({
  id: id(),
  appId,
  sessionId: `user-${id().slice(0, 8)}`,
  ...over,
});

export const aConversation = (
  appId: string,
  endUserId: string,
  over: Partial<Conversation> = {},
): Conversation => ({
  id: id(),
  appId,
  endUserId,
  isDeleted: false,
  ...over,
});

export const aVariable = (
  conversationId: string,
  over: Partial<ConversationVariable> = {},
): ConversationVariable => ({
  id: id(),
  conversationId,
  name: "user_preference",
  valueType: "string",
  value: "tea",
  description: "What the user likes",
  createdAt: 1_700_000_000,
  updatedAt: 1_700_000_000,
  ...over,
});

export const anApiKey = (
  workspaceId: string,
  tokenHash: string,
  target: { kind: "app"; appId: string } | { kind: "dataset"; appId: null },
  over: Partial<Omit<ApiKey, "kind" | "appId">> = {},
): ApiKey => ({
  id: id(),
  workspaceId,
  tokenHash,
  displayPrefix: target.kind === "app" ? "app-abcd" : "ds-abcd",
  createdAt: 1_700_000_000,
  lastUsedAt: null,
  ...target,
  ...over,
});
