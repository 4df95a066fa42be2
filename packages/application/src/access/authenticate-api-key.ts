import {
  type ApiKey,
  type ApiKeyKind,
  type App,
  apiKeyKindOf,
  ensureAppServesApi,
  ForbiddenError,
  StoreUnavailableError,
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

/** What an app key grants: one app, in service. `keyId` names the key (for limits per key). */
export interface AppPrincipal {
  kind: "app";
  app: App;
  keyId: string;
}

/** What a knowledge key grants: every dataset of one workspace. */
export interface WorkspacePrincipal {
  kind: "dataset";
  workspaceId: string;
  keyId: string;
}

/** Dify's answer to a key it does not know, or of the other kind. */
export const INVALID_TOKEN = "Access token is invalid";

/** How many keys' grants are kept at most; the oldest kept goes first. */
export const GRANTS_KEPT = 1000;

type Principal = AppPrincipal | WorkspacePrincipal;

/** What a key granted, as of an access revision. */
interface Grant {
  revision: number;
  key: ApiKey;
  principal: Principal;
}

/**
 * Turns a bearer token into what it grants. A key of the other kind is treated as unknown (401).
 * App keys also need their app and workspace in service (403).
 *
 * Grants are kept by token hash while the store's access revision stays the same, so most requests
 * read that one number instead of the key, its app and its workspace; any change to those, in any
 * process, shows at the next request. Unknown tokens and refusals are never kept.
 */
export class AuthenticateApiKey {
  readonly #grants = new Map<string, Grant>();
  /** How often a kept grant answered (`kept`) and how often the key had to be read (`read`), since start. */
  readonly grantLookups = { kept: 0, read: 0 };

  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly apps: AppRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly hasher: TokenHasher,
    private readonly clock: Clock,
    /** Told when recording a key's use failed for a reason other than a store that cannot serve. */
    private readonly useRecordFailed: (error: unknown) => void,
  ) {}

  forApp(token: string): Promise<AppPrincipal> {
    return this.#authenticate(token, "app", this.#appGrant) as Promise<AppPrincipal>;
  }

  forWorkspace(token: string): Promise<WorkspacePrincipal> {
    return this.#authenticate(token, "dataset", this.#workspaceGrant) as Promise<WorkspacePrincipal>;
  }

  readonly #appGrant = async (key: ApiKey): Promise<AppPrincipal> => {
    if (key.kind !== "app") throw new UnauthorizedError(INVALID_TOKEN);
    const app = await this.apps.findById(key.appId);
    const workspace = app && (await this.workspaces.findById(app.workspaceId));
    return { kind: "app", app: ensureAppServesApi(app, workspace), keyId: key.id };
  };

  readonly #workspaceGrant = async (key: ApiKey): Promise<WorkspacePrincipal> => {
    const workspace = await this.workspaces.findById(key.workspaceId);
    if (workspace?.status !== "normal") throw new ForbiddenError("The workspace is archived.");
    return { kind: "dataset", workspaceId: key.workspaceId, keyId: key.id };
  };

  async #authenticate(
    token: unknown,
    kind: ApiKeyKind,
    grantOf: (key: ApiKey) => Promise<Principal>,
  ): Promise<Principal> {
    if (typeof token !== "string" || apiKeyKindOf(token) !== kind) throw new UnauthorizedError(INVALID_TOKEN);
    const tokenHash = this.hasher.hash(token);
    const revision = await this.apiKeys.accessRevision();
    const kept = this.#grants.get(tokenHash);
    if (kept?.revision === revision && kept.key.kind === kind) {
      this.grantLookups.kept += 1;
      this.#recordUse(kept.key);
      return kept.principal;
    }
    this.grantLookups.read += 1;
    this.#grants.delete(tokenHash);
    const key = await this.apiKeys.findByTokenHash(tokenHash);
    if (!key || key.kind !== kind || !this.hasher.matches(token, key.tokenHash)) {
      throw new UnauthorizedError(INVALID_TOKEN);
    }
    this.#recordUse(key);
    const principal = await grantOf(key);
    this.#keep(tokenHash, { revision, key, principal });
    return principal;
  }

  /**
   * Records the key's use when it is due (at most once a minute), beside the request, which never
   * waits for it: a write waits for a lock another connection holds (an import's, on SQLite).
   * Best effort: a store that cannot serve has told its monitor; other failures go to `useRecordFailed`,
   * whose own failure is dropped.
   */
  #recordUse(key: ApiKey): void {
    const now = this.clock.nowSeconds();
    if (!shouldRecordKeyUse(key.lastUsedAt, now)) return;
    key.lastUsedAt = now;
    this.apiKeys.recordUse(key.id, now).catch((error: unknown) => {
      if (error instanceof StoreUnavailableError) return;
      try {
        this.useRecordFailed(error);
      } catch {
        // A reporter that throws must not become an unhandled rejection, which ends the process.
      }
    });
  }

  #keep(tokenHash: string, grant: Grant): void {
    if (this.#grants.size >= GRANTS_KEPT) this.#grants.delete(this.#grants.keys().next().value!);
    this.#grants.set(tokenHash, grant);
  }
}
