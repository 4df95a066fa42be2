import "reflect-metadata";
import { RandomUuidGenerator, Sha256TokenHasher, SystemClock } from "@service-api/adapters-node";
import {
  AuthenticateApiKey,
  BindTagsToDataset,
  GetDocument,
  GetWebAppSettings,
  ListMetadataFields,
  UpdateConversationVariable,
} from "@service-api/application";
import type { Store } from "@service-api/ports";
import type { Logger } from "pino";
import { type DependencyContainer, instanceCachingFactory, container as rootContainer } from "tsyringe";
import type { Config } from "./config.js";
import * as tokens from "./tokens.js";

/** The composition root: the only place that knows which adapter serves which port. */
export function createContainer(config: Config, store: Store, logger: Logger): DependencyContainer {
  const container = rootContainer.createChildContainer();
  container.register(tokens.CONFIG, { useValue: config });
  container.register(tokens.LOGGER, { useValue: logger });
  container.register(tokens.STORE, { useValue: store });
  container.register(tokens.CLOCK, { useFactory: instanceCachingFactory(() => new SystemClock()) });
  container.register(tokens.ID_GENERATOR, {
    useFactory: instanceCachingFactory(() => new RandomUuidGenerator()),
  });
  container.register(tokens.TOKEN_HASHER, {
    useFactory: instanceCachingFactory(() => new Sha256TokenHasher()),
  });

  const repositories = () => container.resolve(tokens.STORE).repositories;
  const single = <T>(build: () => T) => ({ useFactory: instanceCachingFactory(build) });

  container.register(
    tokens.AUTHENTICATE_API_KEY,
    single(() => {
      const { apiKeys, apps, workspaces } = repositories();
      const [hasher, clock] = [container.resolve(tokens.TOKEN_HASHER), container.resolve(tokens.CLOCK)];
      return new AuthenticateApiKey(apiKeys, apps, workspaces, hasher, clock);
    }),
  );
  container.register(
    tokens.GET_DOCUMENT,
    single(() => {
      const { datasets, documents, metadata, workspaces } = repositories();
      return new GetDocument(datasets, documents, metadata, workspaces);
    }),
  );
  container.register(
    tokens.UPDATE_CONVERSATION_VARIABLE,
    single(() => {
      const { endUsers, conversations } = repositories();
      return new UpdateConversationVariable(endUsers, conversations, container.resolve(tokens.CLOCK));
    }),
  );
  container.register(
    tokens.BIND_TAGS_TO_DATASET,
    single(() => {
      const { datasets, tags } = repositories();
      return new BindTagsToDataset(
        datasets,
        tags,
        container.resolve(tokens.ID_GENERATOR),
        container.resolve(tokens.CLOCK),
      );
    }),
  );
  container.register(
    tokens.LIST_METADATA_FIELDS,
    single(() => {
      const { datasets, documents, metadata } = repositories();
      return new ListMetadataFields(datasets, documents, metadata);
    }),
  );
  container.register(
    tokens.GET_WEB_APP_SETTINGS,
    single(() => new GetWebAppSettings(repositories().apps, container.resolve(tokens.CONFIG).filesUrl)),
  );
  return container;
}
