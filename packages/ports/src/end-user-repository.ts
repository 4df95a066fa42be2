import type { EndUser } from "@service-api/domain";

/** End users of apps, known by the `user` string the app chose. */
export interface EndUserRepository {
  /**
   * Inserts or replaces the end user with this id (imports); (appId, sessionId) is unique. Answers
   * "owned_elsewhere", writing nothing, when the id is another app's end user (an end user never
   * moves); undefined when it wrote.
   */
  save(endUser: EndUser): Promise<"owned_elsewhere" | undefined>;
  /** The app's end user with this `user` string. Matching is exact (case-sensitive). */
  findBySessionId(appId: string, sessionId: string): Promise<EndUser | undefined>;
  findById(id: string): Promise<EndUser | undefined>;
}
