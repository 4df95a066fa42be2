import type { MetadataField, Tag } from "@service-api/domain";
import type { DatasetOverview, Repositories } from "@service-api/ports";

/** A dataset as the dataset object shows it: its overview, its knowledge tags and its custom fields. */
export interface DatasetView {
  overview: DatasetOverview;
  /** Knowledge tags bound to it, by name then id. */
  tags: Tag[];
  /** Custom fields, in creation order. */
  fields: MetadataField[];
}

/** Completes overviews with their tags and fields: two reads for the whole page. */
export async function datasetViews(
  overviews: DatasetOverview[],
  { tags, metadata }: Pick<Repositories, "tags" | "metadata">,
): Promise<DatasetView[]> {
  const ids = overviews.map((overview) => overview.dataset.id);
  const [bound, fields] = await Promise.all([tags.boundTags(ids), metadata.listFieldsOf(ids)]);
  return overviews.map((overview) => ({
    overview,
    tags: (bound.get(overview.dataset.id) ?? []).filter((tag) => tag.type === "knowledge"),
    fields: fields.get(overview.dataset.id) ?? [],
  }));
}
