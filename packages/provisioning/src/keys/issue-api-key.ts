import {
  type ApiKey,
  displayPrefixOf,
  InvalidParamError,
  lookupId,
  NotFoundError,
} from "@service-api/domain";
import type { Clock, IdGenerator, Repositories, TokenGenerator, TokenHasher } from "@service-api/ports";

export type KeyTarget = { appId: string } | { workspaceId: string };

export interface IssuedApiKey {
  key: ApiKey;
  /** The secret itself: shown once, never stored. */
  token: string;
}

/** Issues a new key for an app, or for the knowledge bases of a workspace. */
export class IssueApiKey {
  constructor(
    private readonly repositories: Repositories,
    private readonly tokens: TokenGenerator,
    private readonly hasher: TokenHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(target: KeyTarget): Promise<IssuedApiKey> {
    // A direct caller's missing target is refused before an id is drawn or anything is read.
    if (typeof target !== "object" || target === null)
      throw new InvalidParamError("target", "target: must be an object.");
    const common = { id: this.ids.next(), createdAt: this.clock.nowSeconds(), lastUsedAt: null };
    let key: ApiKey;
    let token: string;
    if ("appId" in target) {
      // An id no store can hold names nothing (PostgreSQL would refuse it with its own error).
      const app = await this.repositories.apps.findById(lookupId(target.appId));
      if (!app) throw new NotFoundError(`No app has the id ${target.appId}.`);
      token = this.tokens.generate("app");
      key = {
        ...common,
        kind: "app",
        appId: app.id,
        workspaceId: app.workspaceId,
        tokenHash: this.hasher.hash(token),
        displayPrefix: displayPrefixOf(token),
      };
    } else {
      const workspace = await this.repositories.workspaces.findById(lookupId(target.workspaceId));
      if (!workspace) throw new NotFoundError(`No workspace has the id ${target.workspaceId}.`);
      token = this.tokens.generate("dataset");
      key = {
        ...common,
        kind: "dataset",
        appId: null,
        workspaceId: workspace.id,
        tokenHash: this.hasher.hash(token),
        displayPrefix: displayPrefixOf(token),
      };
    }
    await this.repositories.apiKeys.save(key);
    return { key, token };
  }
}
