import type { EndUser } from "@service-api/domain";

/** End users of apps, known by the `user` string the app chose. */
export interface EndUserRepository {
  /** Inserts or replaces the end user with this id. (appId, sessionId) is unique. */
  save(endUser: EndUser): Promise<void>;
  /** The app's end user with this `user` string. Matching is exact (case-sensitive). */
  findBySessionId(appId: string, sessionId: string): Promise<EndUser | undefined>;
  findById(id: string): Promise<EndUser | undefined>;
}
