import { lookupId, NotFoundError } from "@service-api/domain";
import type { ApiKeyRepository } from "@service-api/ports";

/** Revokes a key by its id: from then on it authenticates nothing. */
export class RevokeApiKey {
  constructor(private readonly apiKeys: ApiKeyRepository) {}

  async execute(id: string): Promise<void> {
    if (!(await this.apiKeys.delete(lookupId(id)))) throw new NotFoundError(`No API key has the id ${id}.`);
  }
}
