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
import {
  checkStoreOptions,
  openStore,
  type PostgresPoolOptions,
  type PostgresTuning,
  type SqliteTuning,
  type StoreOptions,
} from "@service-api/stores";
import { type Router as ExpressRouter, Router } from "express";
import type { Logger } from "pino";
import type { DependencyContainer } from "tsyringe";
import { servesPath } from "./api/path-routes.js";
import { serviceApiPaths, serviceApiRoutes } from "./app.js";
import { DEFAULT_JOB_WORKERS, JobWorkers } from "./background/job-workers.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { createContainer } from "./container.js";
import { FAMILIES } from "./families/index.js";
import { errorHandler, RETRY_AFTER_SECONDS } from "./http/error-handler.js";
import { RetryingOpener } from "./lifecycle/retrying-opener.js";
import { createLogger } from "./logger.js";
import { StoreOutage } from "./observability/store-outage.js";
import * as tokens from "./tokens.js";

export interface ServiceApiOptions {
  /** `postgres://…`, or a SQLite path or `file:` URL; default `file:./data/service-api.sqlite`. Migrations run on open. */
  databaseUrl?: string;
  /** PostgreSQL pool bounds, and `openTimeoutMs`: how long opening the store may take (default 30000). */
  pool?: Partial<PostgresPoolOptions>;
  /** PostgreSQL tuning: `fieldCountFoldMs`, how often counter rows are folded (default 10000; 0 never). */
  postgres?: Partial<PostgresTuning>;
  /** SQLite tuning: `mmapSizeBytes` maps that much of the file instead of reading it (default 0). */
  sqlite?: SqliteTuning;
  /**
   * The key file URLs are signed with (`SECRET_KEY`): the same as the standalone servers' on this
   * database, if they have one. Default: the key the database keeps.
   */
  secretKey?: string;
  /** How long a signed file URL works, in seconds (`FILES_ACCESS_TIMEOUT`); default 300. */
  filesAccessTimeout?: number;
  /** A directory for uploaded files' bytes (`FILES_DIR`); default: in the database. */
  filesDir?: string;
  /** At most this many segments in one Add Chunks call (`DATASET_MAX_SEGMENTS_PER_REQUEST`); 0 for no limit; default 1000. */
  maxSegmentsPerRequest?: number;
  /**
   * Where this router is reached from outside (its mount path included): the base of signed file
   * URLs (`{filesUrl}/files/{id}/file-preview`, served by the router) and of image icons'
   * `icon_url`. Default `http://localhost:5001`.
   */
  filesUrl?: string;
  /** Where errors are logged; default: a JSON logger at `warn` on stdout. */
  logger?: Logger;
  /**
   * Background workers this host runs (default 1): they do the store's queued work, such as a
   * deleted dataset's purge. 0 opts out, where another process (a server, another host) does it.
   */
  backgroundWorkers?: number;
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
  /** Stops the background workers (a job under way stops at its next step), then closes the database. */
  close(): Promise<void>;
}

/** What opening needs, checked and built from the options before anything opens. */
interface ServiceApiSettings {
  config: Config;
  storeOptions: StoreOptions;
  logger: Logger;
  /** One for every attempt to open and for the store that opens: one outage, logged once. */
  outage: StoreOutage;
  backgroundWorkers: number;
}

/**
 * The options, checked: a bad one throws here (a `StoreOptionsError` or a `ConfigError`), before
 * anything is opened. The
 * one place that checks them, for `openServiceApi` and `createServiceApiRouter` alike.
 */
function checkedSettings(options: ServiceApiOptions): ServiceApiSettings {
  // As given (an empty databaseUrl too, which the environment's rules read as unset).
  const { databaseUrl, pool, postgres, sqlite } = options;
  checkStoreOptions({ databaseUrl, pool, postgres, sqlite });
  const config = loadConfig({
    DATABASE_URL: options.databaseUrl,
    FILES_URL: options.filesUrl,
    SECRET_KEY: options.secretKey,
    FILES_ACCESS_TIMEOUT: options.filesAccessTimeout?.toString(),
    DATASET_MAX_SEGMENTS_PER_REQUEST: options.maxSegmentsPerRequest?.toString(),
    DEMO: "off",
  });
  const logger = options.logger ?? createLogger("warn");
  const outage = new StoreOutage(logger);
  const storeOptions: StoreOptions = {
    databaseUrl: config.databaseUrl,
    ...(options.filesDir !== undefined && { filesDir: options.filesDir }),
    // Not given, the lock time-out follows the statement time-out given here (`lockTimeoutFor`).
    pool: { ...config.pool, lockTimeoutMs: undefined, ...options.pool },
    postgres: { ...config.postgres, ...options.postgres },
    sqlite: { ...config.sqlite, ...options.sqlite },
    monitor: outage,
  };
  const backgroundWorkers = options.backgroundWorkers ?? DEFAULT_JOB_WORKERS.count;
  if (!Number.isSafeInteger(backgroundWorkers) || backgroundWorkers < 0 || backgroundWorkers > 64)
    throw new ConfigError("Invalid configuration: backgroundWorkers: expected a whole number from 0 to 64");
  return { config, storeOptions, logger, outage, backgroundWorkers };
}

/** Opens the store and builds every use case, for a Node service that calls them directly. */
export async function openServiceApi(options: ServiceApiOptions = {}): Promise<ServiceApi> {
  return openWith(checkedSettings(options));
}

async function openWith(settings: ServiceApiSettings): Promise<ServiceApi> {
  const { config, storeOptions, logger, outage } = settings;
  const store = await openStore(storeOptions);
  const container = createContainer(config, store, logger, { outage });
  const workers = new JobWorkers(
    store,
    container.resolve(tokens.CLOCK),
    container.resolve(tokens.ID_GENERATOR),
    logger,
    {
      ...DEFAULT_JOB_WORKERS,
      count: settings.backgroundWorkers,
      leaseMs: config.jobLeaseMs,
      maxFileBytes: config.uploadLimitBytes,
    },
    container.resolve(tokens.JOB_SIGNAL),
  );
  workers.start();
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
    close: async () => {
      await workers.stop();
      await store.close();
    },
  };
}

/** A router to mount in another Express app; a request that comes while the store is opening waits for it. */
export interface ServiceApiRouter extends ExpressRouter {
  /**
   * The first attempt to open the store: resolves once it is open; rejects with its error if it
   * could not be (the router then answers 503 and tries again on a request a second later).
   */
  ready: Promise<void>;
  /** Closes the store (once any attempt under way has ended); requests after it answer 503. */
  close(): Promise<void>;
}

/**
 * The API as an Express router: `app.use("/v1", createServiceApiRouter({ databaseUrl }))`, its
 * OpenAPI document at `openapi.json` within, describing it where it is mounted. Errors of its
 * routes answer `{status, code, message}`; other paths fall through to the host app, even while the
 * store is not open. Throws at
 * once for a bad option; a store that cannot be opened yet (refused, or not open within
 * `pool.openTimeoutMs`) is a 503 with `Retry-After`.
 */
export function createServiceApiRouter(options: ServiceApiOptions = {}): ServiceApiRouter {
  const settings = checkedSettings(options);
  const opener = new RetryingOpener(
    async () => {
      const api = await openWith(settings);
      try {
        return { routes: serviceApiRoutes(api.container), close: () => api.close() };
      } catch (error) {
        await api.close();
        throw error;
      }
    },
    { backOffMs: RETRY_AFTER_SECONDS * 1000, monitor: settings.outage },
  );
  const router = Router() as ServiceApiRouter;
  router.ready = opener.first.then(() => undefined);
  // Heard here, so that a host that never awaits it is not ended by an unhandled rejection.
  router.ready.catch(() => {});
  const ours = servesPath(serviceApiPaths());
  router.use((req, res, next) => {
    const opened = opener.opened;
    if (opened) return opened.routes(req, res, next);
    // The host's paths are not the store's to hold up: they fall through while it opens, after a
    // failed attempt, and once it is closed.
    if (!ours(req.path)) return next();
    // A rejection (503: not open yet, or closed) Express hands to the error handler below.
    return opener.get().then((api) => api.routes(req, res, next));
  });
  router.use(errorHandler(settings.logger));
  router.close = () => opener.close();
  return router;
}
