import type { Tag, TagBinding } from "@service-api/domain";
import type { TagRepository } from "../../tag-repository.js";
import { byName, byText, type Snapshotting } from "./snapshotting.js";

export class InMemoryTagRepository implements TagRepository, Snapshotting {
  #tags = new Map<string, Tag>();
  /** `${tagId} ${targetId}` → binding, in insertion order. */
  #bindings = new Map<string, TagBinding>();

  snapshot(): unknown {
    return structuredClone([this.#tags, this.#bindings]);
  }

  restore(snapshot: unknown): void {
    [this.#tags, this.#bindings] = snapshot as [Map<string, Tag>, Map<string, TagBinding>];
  }

  async listInWorkspace(workspaceId: string): Promise<Tag[]> {
    const tags = [...this.#tags.values()].filter((tag) => tag.workspaceId === workspaceId);
    tags.sort((a, b) => byText(a.type, b.type) || byName(a, b));
    return structuredClone(tags);
  }

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
