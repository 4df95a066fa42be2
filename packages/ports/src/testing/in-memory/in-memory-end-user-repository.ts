import type { EndUser } from "@service-api/domain";
import type { EndUserRepository } from "../../end-user-repository.js";
import type { Snapshotting } from "./snapshotting.js";

export class InMemoryEndUserRepository implements EndUserRepository, Snapshotting {
  #endUsers = new Map<string, EndUser>();

  snapshot(): unknown {
    return structuredClone(this.#endUsers);
  }

  restore(snapshot: unknown): void {
    this.#endUsers = snapshot as Map<string, EndUser>;
  }

  async findById(id: string): Promise<EndUser | undefined> {
    return structuredClone(this.#endUsers.get(id));
  }

  async save(endUser: EndUser): Promise<"owned_elsewhere" | undefined> {
    const stored = this.#endUsers.get(endUser.id);
    if (stored && stored.appId !== endUser.appId) return "owned_elsewhere";
    this.#endUsers.set(endUser.id, structuredClone(endUser));
    return undefined;
  }

  async findBySessionId(appId: string, sessionId: string): Promise<EndUser | undefined> {
    const endUser = [...this.#endUsers.values()].find(
      (user) => user.appId === appId && user.sessionId === sessionId,
    );
    return structuredClone(endUser);
  }
}
