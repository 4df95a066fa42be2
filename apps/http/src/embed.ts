import type {
  AuthenticateApiKey,
  BindTagsToDataset,
  GetDocument,
  GetWebAppSettings,
  ListMetadataFields,
  UpdateConversationVariable,
} from "@service-api/application";
import type { Store } from "@service-api/ports";
import type { ExportData, ImportData, IssueApiKey, RevokeApiKey } from "@service-api/provisioning";
import type { PostgresPoolOptions, PostgresTuning, SqliteTuning } from "@service-api/stores";
import { openStore } from "@service-api/stores";
import { type Router as ExpressRouter, Router } from "express";
import type { Logger } from "pino";
import type { DependencyContainer } from "tsyringe";
import { serviceApiRoutes } from "./app.js";
import { loadConfig } from "./config.js";
import { createContainer } from "./container.js";
import { FAMILIES } from "./families/index.js";
import { errorHandler } from "./http/error-handler.js";
import { createLogger } from "./logger.js";
import { StoreOutage } from "./observability/store-outage.js";
import * as tokens from "./tokens.js";

export interface ServiceApiOptions {
  /** `postgres://…`, or a SQLite path or `file:` URL; default `file:./data/service-api.sqlite`. Migrations run on open. */
  databaseUrl?: string;
  /** PostgreSQL pool bounds. */
  pool?: Partial<PostgresPoolOptions>;
  /** PostgreSQL tuning: `fieldCountFoldMs`, how often counter rows are folded (default 10000; 0 never). */
  postgres?: Partial<PostgresTuning>;
  /** SQLite tuning: `mmapSizeBytes` maps that much of the file instead of reading it (default 0). */
  sqlite?: SqliteTuning;
  /** Public base of image icons (`icon_url`); default `http://localhost:5001`. */
  filesUrl?: string;
  /** Where errors are logged; default: a JSON logger at `warn` on stdout. */
  logger?: Logger;
}

type FamilyOf<Name> = Extract<(typeof FAMILIES)[number], { name: Name }>;

/** Each family's use cases by the family's name: `api.tags.createKnowledgeTag.execute(…)`. */
export type FamilyUseCases = {
  [Name in (typeof FAMILIES)[number]["name"]]: ReturnType<FamilyOf<Name>["useCases"]>;
};

/** The service without HTTP: every use case over one open store. */
export interface ServiceApi extends FamilyUseCases {
  authenticate: AuthenticateApiKey;
  /** The first five operations, also under their families. */
  getDocument: GetDocument;
  updateConversationVariable: UpdateConversationVariable;
  bindTagsToDataset: BindTagsToDataset;
  listMetadataFields: ListMetadataFields;
  getWebAppSettings: GetWebAppSettings;
  importData: ImportData;
  exportData: ExportData;
  issueApiKey: IssueApiKey;
  revokeApiKey: RevokeApiKey;
  store: Store;
  container: DependencyContainer;
  /** Closes the database. */
  close(): Promise<void>;
}

/** Opens the store and builds every use case, for a Node service that calls them directly. */
export async function openServiceApi(options: ServiceApiOptions = {}): Promise<ServiceApi> {
  const config = loadConfig({ DATABASE_URL: options.databaseUrl, FILES_URL: options.filesUrl, DEMO: "off" });
  const logger = options.logger ?? createLogger("warn");
  const outage = new StoreOutage(logger);
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    pool: { ...config.pool, ...options.pool },
    postgres: { ...config.postgres, ...options.postgres },
    sqlite: { ...config.sqlite, ...options.sqlite },
    monitor: outage,
  });
  const container = createContainer(config, store, logger, { outage });
  const families = Object.fromEntries(
    FAMILIES.map((family) => [family.name, container.resolve(family.token as never)]),
  ) as FamilyUseCases;
  return {
    ...families,
    authenticate: container.resolve(tokens.AUTHENTICATE_API_KEY),
    getDocument: families.documents.getDocument,
    updateConversationVariable: families.conversations.updateConversationVariable,
    bindTagsToDataset: families.tags.bindTagsToDataset,
    listMetadataFields: families.metadata.listMetadataFields,
    getWebAppSettings: families.app.getWebAppSettings,
    importData: container.resolve(tokens.IMPORT_DATA),
    exportData: container.resolve(tokens.EXPORT_DATA),
    issueApiKey: container.resolve(tokens.ISSUE_API_KEY),
    revokeApiKey: container.resolve(tokens.REVOKE_API_KEY),
    store,
    container,
    close: () => store.close(),
  };
}

/** A router to mount in another Express app; requests wait until the store is open. */
export interface ServiceApiRouter extends ExpressRouter {
  /** Resolves once the store is open (rejects if it cannot be). */
  ready: Promise<void>;
  /** Closes the store. */
  close(): Promise<void>;
}

/**
 * The API as an Express router: `app.use("/v1", createServiceApiRouter({ databaseUrl }))`, its
 * OpenAPI document at `openapi.json` within. Errors of its routes answer `{status, code, message}`;
 * other paths fall through to the host app.
 */
export function createServiceApiRouter(options: ServiceApiOptions = {}): ServiceApiRouter {
  const logger = options.logger ?? createLogger("warn");
  const opening = openServiceApi({ ...options, logger });
  const router = Router() as ServiceApiRouter;
  let routes: ExpressRouter | undefined;
  router.ready = opening.then((api) => {
    routes = serviceApiRoutes(api.container);
  });
  router.ready.catch((error: unknown) =>
    logger.error({ err: error }, "service-api could not open its store"),
  );
  router.use((req, res, next) => {
    router.ready.then(() => routes!(req, res, next), next);
  });
  router.use(errorHandler(logger));
  router.close = async () => (await opening).close();
  return router;
}
