import type { Tag, TagBinding } from "@service-api/domain";
import type { TagRepository } from "../../tag-repository.js";

export class InMemoryTagRepository implements TagRepository {
  readonly #tags = new Map<string, Tag>();
  /** `${tagId} ${targetId}` → binding, in insertion order. */
  readonly #bindings = new Map<string, TagBinding>();

  async save(tag: Tag): Promise<void> {
    this.#tags.set(tag.id, structuredClone(tag));
  }

  async findByIds(ids: readonly string[]): Promise<Tag[]> {
    return [...new Set(ids)].flatMap((id) => {
      const tag = this.#tags.get(id);
      return tag ? [structuredClone(tag)] : [];
    });
  }

  async bind(bindings: readonly TagBinding[]): Promise<void> {
    for (const binding of bindings) {
      const pair = `${binding.tagId} ${binding.targetId}`;
      if (!this.#bindings.has(pair)) this.#bindings.set(pair, structuredClone(binding));
    }
  }

  async boundTagIds(targetId: string): Promise<string[]> {
    return [...this.#bindings.values()]
      .filter((binding) => binding.targetId === targetId)
      .map((binding) => binding.tagId);
  }
}
