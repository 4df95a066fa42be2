import {
  type CountedTag,
  type Dataset,
  eligibleTagIds,
  type Tag,
  type TagBinding,
  type TagType,
} from "@service-api/domain";
import type { DatasetBinding, Renamed, SaveRefusal, TagRepository } from "../../tag-repository.js";
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

  #counted(tag: Tag): CountedTag {
    let bindingCount = 0;
    for (const binding of this.#bindings.values()) if (binding.tagId === tag.id) bindingCount += 1;
    return { ...structuredClone(tag), bindingCount };
  }

  #nameTaken(tag: Pick<Tag, "id" | "workspaceId" | "type" | "name">): boolean {
    return [...this.#tags.values()].some(
      (other) =>
        other.id !== tag.id &&
        other.workspaceId === tag.workspaceId &&
        other.type === tag.type &&
        other.name === tag.name,
    );
  }

  async listInWorkspace(workspaceId: string): Promise<Tag[]> {
    const tags = [...this.#tags.values()].filter((tag) => tag.workspaceId === workspaceId);
    tags.sort((a, b) => byText(a.type, b.type) || byName(a, b));
    return structuredClone(tags);
  }

  async listCounted(workspaceId: string, type: TagType): Promise<CountedTag[]> {
    return [...this.#tags.values()]
      .filter((tag) => tag.workspaceId === workspaceId && tag.type === type)
      .sort((a, b) => b.createdAt - a.createdAt || byText(a.id, b.id))
      .map((tag) => this.#counted(tag));
  }

  async save(tag: Tag): Promise<SaveRefusal | undefined> {
    const stored = this.#tags.get(tag.id);
    if (stored && stored.workspaceId !== tag.workspaceId) return "owned_elsewhere";
    if (stored && stored.type !== tag.type) return "type_differs";
    if (this.#nameTaken(tag)) return "name_taken";
    this.#tags.set(tag.id, structuredClone(tag));
    return undefined;
  }

  async create(tag: Tag): Promise<boolean> {
    if (this.#nameTaken(tag)) return false;
    this.#tags.set(tag.id, structuredClone(tag));
    return true;
  }

  async findInWorkspace(workspaceId: string, type: TagType, tagId: string): Promise<CountedTag | undefined> {
    const tag = this.#tags.get(tagId);
    return tag?.workspaceId === workspaceId && tag.type === type ? this.#counted(tag) : undefined;
  }

  /** Set by the store: a workspace's dataset, which this repository does not hold. */
  datasetOf: (workspaceId: string, datasetId: string) => Promise<Dataset | undefined> = async () => undefined;

  async bindToDataset({ workspaceId, datasetId, tags, createdAt }: DatasetBinding): Promise<boolean> {
    const dataset = await this.datasetOf(workspaceId, datasetId);
    if (!dataset) return false;
    const asked = tags.map(({ tagId }) => tagId);
    const eligible = eligibleTagIds(asked, await this.findByIds(asked), workspaceId);
    const idOf = new Map(tags.map(({ tagId, bindingId }) => [tagId, bindingId]));
    await this.bind(
      eligible.map((tagId) => ({ id: idOf.get(tagId)!, workspaceId, tagId, targetId: datasetId, createdAt })),
    );
    return true;
  }

  async unbindFromDataset(workspaceId: string, datasetId: string, tagIds: readonly string[]) {
    const dataset = await this.datasetOf(workspaceId, datasetId);
    if (!dataset) return false;
    await this.unbind(datasetId, eligibleTagIds(tagIds, await this.findByIds(tagIds), workspaceId));
    return true;
  }

  async findBoundToDataset(workspaceId: string, datasetId: string) {
    const dataset = await this.datasetOf(workspaceId, datasetId);
    if (!dataset) return { dataset, tags: [] };
    const bound = (await this.boundTags([datasetId])).get(datasetId) ?? [];
    return { dataset, tags: bound.filter((tag) => tag.type === "knowledge") };
  }

  async findByIds(ids: readonly string[]): Promise<Tag[]> {
    return [...new Set(ids)].flatMap((id) => {
      const tag = this.#tags.get(id);
      return tag ? [structuredClone(tag)] : [];
    });
  }

  async rename(
    workspaceId: string,
    type: TagType,
    tagId: string,
    name: string,
  ): Promise<Renamed<CountedTag>> {
    const tag = this.#tags.get(tagId);
    if (tag?.workspaceId !== workspaceId || tag.type !== type) return "not_found";
    if (this.#nameTaken({ ...tag, name })) return "name_taken";
    tag.name = name;
    return this.#counted(tag);
  }

  async delete(workspaceId: string, type: TagType, tagId: string): Promise<boolean> {
    const tag = this.#tags.get(tagId);
    if (tag?.workspaceId !== workspaceId || tag.type !== type) return false;
    for (const [pair, binding] of this.#bindings) if (binding.tagId === tagId) this.#bindings.delete(pair);
    return this.#tags.delete(tagId);
  }

  async bind(bindings: readonly TagBinding[]): Promise<void> {
    for (const binding of bindings) {
      const pair = `${binding.tagId} ${binding.targetId}`;
      if (!this.#bindings.has(pair)) this.#bindings.set(pair, structuredClone(binding));
    }
  }

  /** Every binding of a target, for the in-memory dataset repository's delete. */
  async unbindAll(targetId: string): Promise<void> {
    for (const [pair, binding] of this.#bindings)
      if (binding.targetId === targetId) this.#bindings.delete(pair);
  }

  async unbind(targetId: string, tagIds: readonly string[]): Promise<void> {
    for (const tagId of tagIds) this.#bindings.delete(`${tagId} ${targetId}`);
  }

  async boundTagIds(targetId: string): Promise<string[]> {
    return [...this.#bindings.values()]
      .filter((binding) => binding.targetId === targetId)
      .map((binding) => binding.tagId)
      .sort(byText);
  }

  async boundTags(targetIds: readonly string[]): Promise<Map<string, Tag[]>> {
    const bound = new Map<string, Tag[]>(targetIds.map((id) => [id, []]));
    for (const binding of this.#bindings.values()) {
      const tag = this.#tags.get(binding.tagId);
      if (tag) bound.get(binding.targetId)?.push(structuredClone(tag));
    }
    for (const tags of bound.values()) tags.sort(byName);
    return bound;
  }
}
