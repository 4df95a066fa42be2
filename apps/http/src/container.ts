import "reflect-metadata";
import {
  RandomTokenGenerator,
  RandomUuidGenerator,
  Sha256TextHasher,
  Sha256TokenHasher,
  SystemClock,
} from "@service-api/adapters-node";
import { AuthenticateApiKey } from "@service-api/application";
import type { Store } from "@service-api/ports";
import {
  ExportData,
  ImportData,
  IssueApiKey,
  LoadDemoWorkspace,
  RevokeApiKey,
} from "@service-api/provisioning";
import type { Logger } from "pino";
import {
  type DependencyContainer,
  type InjectionToken,
  instanceCachingFactory,
  container as rootContainer,
} from "tsyringe";
import { JobSignal } from "./background/job-signal.js";
import type { Config } from "./config.js";
import type { Family } from "./families/family.js";
import { FAMILIES } from "./families/index.js";
import { ServerLifecycle } from "./lifecycle/server-lifecycle.js";
import { StoreOutage } from "./observability/store-outage.js";
import { NO_RATE_LIMITS, type RateLimits } from "./rate-limits/rate-limits.js";
import * as tokens from "./tokens.js";

/** What the server follows about itself (the store's outages, its shutdown) and the limits it applies. */
export interface ServerState {
  outage?: StoreOutage;
  lifecycle?: ServerLifecycle;
  rateLimits?: RateLimits;
}

/** The composition root: the only place that knows which adapter serves which port. */
export function createContainer(
  config: Config,
  store: Store,
  logger: Logger,
  state: ServerState = {},
): DependencyContainer {
  const container = rootContainer.createChildContainer();
  const resolve = <T>(token: InjectionToken<T>): T => container.resolve(token);
  /** One instance per container, built on first use by a factory the compiler checks. */
  const single = <T>(token: InjectionToken<T>, build: () => T) =>
    container.register(token, { useFactory: instanceCachingFactory(build) });
  const repositories = () => resolve(tokens.STORE).repositories;

  container.register(tokens.CONFIG, { useValue: config });
  container.register(tokens.LOGGER, { useValue: logger });
  container.register(tokens.STORE, { useValue: store });
  container.register(tokens.STORE_OUTAGE, { useValue: state.outage ?? new StoreOutage(logger) });
  container.register(tokens.LIFECYCLE, { useValue: state.lifecycle ?? new ServerLifecycle() });
  container.register(tokens.RATE_LIMITS, { useValue: state.rateLimits ?? NO_RATE_LIMITS });
  single(tokens.CLOCK, () => new SystemClock());
  single(tokens.JOB_SIGNAL, () => new JobSignal());
  single(tokens.ID_GENERATOR, () => new RandomUuidGenerator());
  single(tokens.TOKEN_HASHER, () => new Sha256TokenHasher());
  single(tokens.TOKEN_GENERATOR, () => new RandomTokenGenerator());

  single(tokens.AUTHENTICATE_API_KEY, () => {
    const { apiKeys, apps, workspaces } = repositories();
    return new AuthenticateApiKey(
      apiKeys,
      apps,
      workspaces,
      resolve(tokens.TOKEN_HASHER),
      resolve(tokens.CLOCK),
      (error) => logger.error({ err: error }, "recording a key's use failed"),
    );
  });
  // Each family's use cases, built in its own module (src/families/).
  for (const family of FAMILIES as readonly Family[]) {
    single(family.token, () =>
      family.useCases({
        store,
        repositories: repositories(),
        clock: resolve(tokens.CLOCK),
        ids: resolve(tokens.ID_GENERATOR),
        hasher: new Sha256TextHasher(),
        config,
        jobSignal: resolve(tokens.JOB_SIGNAL),
      }),
    );
  }

  // Putting data in and taking it out: demo mode and embedding services use these.
  single(
    tokens.IMPORT_DATA,
    () =>
      new ImportData(
        store,
        resolve(tokens.ID_GENERATOR),
        resolve(tokens.TOKEN_HASHER),
        resolve(tokens.CLOCK),
      ),
  );
  single(tokens.EXPORT_DATA, () => new ExportData(resolve(tokens.STORE)));
  single(
    tokens.ISSUE_API_KEY,
    () =>
      new IssueApiKey(
        repositories(),
        resolve(tokens.TOKEN_GENERATOR),
        resolve(tokens.TOKEN_HASHER),
        resolve(tokens.ID_GENERATOR),
        resolve(tokens.CLOCK),
      ),
  );
  single(tokens.REVOKE_API_KEY, () => new RevokeApiKey(repositories().apiKeys));
  single(
    tokens.LOAD_DEMO_WORKSPACE,
    () => new LoadDemoWorkspace(resolve(tokens.IMPORT_DATA), resolve(tokens.ISSUE_API_KEY), repositories()),
  );
  return container;
}
