import type { EndUser } from "@service-api/domain";
import type { EndUserRepository } from "../../end-user-repository.js";

export class InMemoryEndUserRepository implements EndUserRepository {
  readonly #endUsers = new Map<string, EndUser>();

  async save(endUser: EndUser): Promise<void> {
    this.#endUsers.set(endUser.id, structuredClone(endUser));
  }

  async findBySessionId(appId: string, sessionId: string): Promise<EndUser | undefined> {
    const endUser = [...this.#endUsers.values()].find(
      (user) => user.appId === appId && user.sessionId === sessionId,
    );
    return structuredClone(endUser);
  }
}
