import type { AuthenticateApiKey } from "@service-api/application";
import type { Clock, IdGenerator, Store, TokenGenerator, TokenHasher } from "@service-api/ports";
import type {
  ExportData,
  ImportData,
  IssueApiKey,
  LoadDemoWorkspace,
  RevokeApiKey,
} from "@service-api/provisioning";
import type { Logger } from "pino";
import type { InjectionToken } from "tsyringe";
import type { JobSignal } from "./background/job-signal.js";
import type { Config } from "./config.js";
import type { ServerLifecycle } from "./lifecycle/server-lifecycle.js";
import type { ServerMetrics } from "./observability/metrics.js";
import type { StoreOutage } from "./observability/store-outage.js";
import type { RateLimits } from "./rate-limits/rate-limits.js";

/** Every dependency of the app, by a typed token: the compiler checks what each resolves to. */
export const CONFIG: InjectionToken<Config> = Symbol("Config");
export const LOGGER: InjectionToken<Logger> = Symbol("Logger");
export const STORE: InjectionToken<Store> = Symbol("Store");
export const STORE_OUTAGE: InjectionToken<StoreOutage> = Symbol("StoreOutage");
export const LIFECYCLE: InjectionToken<ServerLifecycle> = Symbol("ServerLifecycle");
export const RATE_LIMITS: InjectionToken<RateLimits> = Symbol("RateLimits");
export const METRICS: InjectionToken<ServerMetrics> = Symbol("ServerMetrics");
export const CLOCK: InjectionToken<Clock> = Symbol("Clock");
export const JOB_SIGNAL: InjectionToken<JobSignal> = Symbol("JobSignal");
export const ID_GENERATOR: InjectionToken<IdGenerator> = Symbol("IdGenerator");
export const TOKEN_HASHER: InjectionToken<TokenHasher> = Symbol("TokenHasher");
export const TOKEN_GENERATOR: InjectionToken<TokenGenerator> = Symbol("TokenGenerator");

export const AUTHENTICATE_API_KEY: InjectionToken<AuthenticateApiKey> = Symbol("AuthenticateApiKey");
export const IMPORT_DATA: InjectionToken<ImportData> = Symbol("ImportData");
export const EXPORT_DATA: InjectionToken<ExportData> = Symbol("ExportData");
export const ISSUE_API_KEY: InjectionToken<IssueApiKey> = Symbol("IssueApiKey");
export const REVOKE_API_KEY: InjectionToken<RevokeApiKey> = Symbol("RevokeApiKey");
export const LOAD_DEMO_WORKSPACE: InjectionToken<LoadDemoWorkspace> = Symbol("LoadDemoWorkspace");
