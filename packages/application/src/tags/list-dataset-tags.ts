import type { Dataset, Tag } from "@service-api/domain";
import type { TagRepository } from "@service-api/ports";

/** Query Dataset Tags: the knowledge tags bound to a dataset, by name then id. */
export class ListDatasetTags {
  constructor(private readonly tags: TagRepository) {}

  async execute(input: { dataset: Dataset }): Promise<Tag[]> {
    const bound = await this.tags.boundTags([input.dataset.id]);
    return (bound.get(input.dataset.id) ?? []).filter((tag) => tag.type === "knowledge");
  }
}
