import {
  type ApiKey,
  type ApiKeyKind,
  type App,
  apiKeyKindOf,
  ensureAppServesApi,
  ForbiddenError,
  shouldRecordKeyUse,
  UnauthorizedError,
} from "@service-api/domain";
import type {
  ApiKeyRepository,
  AppRepository,
  Clock,
  TokenHasher,
  WorkspaceRepository,
} from "@service-api/ports";

/** What an app key grants: one app, in service. */
export interface AppPrincipal {
  kind: "app";
  app: App;
}

/** What a knowledge key grants: every dataset of one workspace. */
export interface WorkspacePrincipal {
  kind: "dataset";
  workspaceId: string;
}

const INVALID_TOKEN = "Access token is invalid";

/**
 * Turns a bearer token into what it grants. A key of the other kind is treated as unknown (401).
 * App keys also need their app and workspace in service (403).
 */
export class AuthenticateApiKey {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly apps: AppRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly hasher: TokenHasher,
    private readonly clock: Clock,
  ) {}

  async forApp(token: string): Promise<AppPrincipal> {
    const key = await this.#find(token, "app");
    if (key.kind !== "app") throw new UnauthorizedError(INVALID_TOKEN);
    const app = await this.apps.findById(key.appId);
    const workspace = app && (await this.workspaces.findById(app.workspaceId));
    return { kind: "app", app: ensureAppServesApi(app, workspace) };
  }

  async forWorkspace(token: string): Promise<WorkspacePrincipal> {
    const key = await this.#find(token, "dataset");
    const workspace = await this.workspaces.findById(key.workspaceId);
    if (workspace?.status !== "normal") throw new ForbiddenError("The workspace is archived.");
    return { kind: "dataset", workspaceId: key.workspaceId };
  }

  async #find(token: string, kind: ApiKeyKind): Promise<ApiKey> {
    if (apiKeyKindOf(token) !== kind) throw new UnauthorizedError(INVALID_TOKEN);
    const tokenHash = this.hasher.hash(token);
    const key = await this.apiKeys.findByTokenHash(tokenHash);
    if (!key || key.kind !== kind || !this.hasher.matches(token, key.tokenHash)) {
      throw new UnauthorizedError(INVALID_TOKEN);
    }
    const now = this.clock.nowSeconds();
    if (shouldRecordKeyUse(key.lastUsedAt, now)) await this.apiKeys.recordUse(key.id, now);
    return key;
  }
}
