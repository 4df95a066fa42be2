import type { DatasetFilter, DatasetOverview } from "@service-api/ports";
import { type Kysely, sql } from "kysely";
import { compiledReadWith } from "../compiled-read.js";
import type { DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { aroundDataset, type OverviewRow, overviewFromRow } from "./dataset-overview.js";

/** What List Datasets asks of the workspace's datasets: a name containing `keyword`, every tag of `tags`. */
interface MatchingDatasets {
  /** The keyword as `textFilterArgument` makes it. */
  keyword: string | undefined;
  /** The tags as one `listParameter`, and how many there are. */
  tags: { list: unknown; count: number } | undefined;
}

const datasetsMatching = (
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  workspaceId: string,
  { keyword, tags }: MatchingDatasets,
) => {
  let matching = db.selectFrom("datasets").where("workspace_id", "=", workspaceId);
  if (keyword !== undefined) matching = matching.where(features.containsText("name", keyword));
  if (tags === undefined) return matching;
  // Bound to every tag asked; an id that is not a knowledge tag of the workspace matches nothing.
  return matching.where("id", "in", (eb) =>
    eb
      .selectFrom("tag_bindings")
      .innerJoin("tags", "tags.id", "tag_bindings.tag_id")
      .select("tag_bindings.target_id")
      .where("tags.workspace_id", "=", workspaceId)
      .where("tags.type", "=", "knowledge")
      .where(features.inList(sql.ref("tag_bindings.tag_id"), tags.list))
      .groupBy("tag_bindings.target_id")
      .having((eb) => eb.fn.countAll(), "=", tags.count),
  );
};

/**
 * A page of List Datasets, newest first, each row with its overview and the total matching (an
 * uncorrelated sub-select, counted once). Compiled once (on PostgreSQL, named) for each of the four
 * filters: none, a keyword, tags, both. The tags go as one parameter, so their number does not
 * change the statement.
 */
const datasetPage = (filtered: { keyword: boolean; tags: boolean }) =>
  compiledReadWith(
    (
      db,
      features,
      workspaceId: string,
      keyword: string,
      tagList: unknown,
      tagCount: number,
      limit: number,
      offset: number,
    ) => {
      const matching = datasetsMatching(db, features, workspaceId, {
        keyword: filtered.keyword ? keyword : undefined,
        tags: filtered.tags ? { list: tagList, count: tagCount } : undefined,
      });
      // The page's rows first, then their overviews: the overview's sub-selects never run for the
      // rows the offset skips (PostgreSQL ran them for every dataset before it: a late page of
      // 10,000 took 2.4 s). Named `datasets`, so the overview reads it as it reads the table.
      const pageRows = matching
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id")
        .limit(limit)
        .offset(offset);
      return db
        .selectFrom(pageRows.as("datasets"))
        .selectAll()
        .select(aroundDataset(features) as never)
        .select(matching.select((eb) => eb.fn.countAll<number>().as("total")).as("matching_total"))
        .orderBy("created_at", "desc")
        .orderBy("id");
    },
  );
/** By `2 × keyword + tags`. */
const DATASET_PAGES = [
  datasetPage({ keyword: false, tags: false }),
  datasetPage({ keyword: false, tags: true }),
  datasetPage({ keyword: true, tags: false }),
  datasetPage({ keyword: true, tags: true }),
];

/** List Datasets' page of a workspace's datasets and the total matching, in one statement unless the page is past the end. */
export function datasetPages(features: SqlFeatures) {
  const pages = DATASET_PAGES.map((page) => page(features));
  return async (
    db: Kysely<DatabaseSchema>,
    workspaceId: string,
    filter: DatasetFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: DatasetOverview[]; total: number }> => {
    const tagIds = [...new Set(filter.tagIds ?? [])];
    const matching: MatchingDatasets = {
      keyword: filter.keyword === undefined ? undefined : features.textFilterArgument(filter.keyword),
      tags: tagIds.length > 0 ? { list: features.listParameter(tagIds), count: tagIds.length } : undefined,
    };
    const page = pages[Number(matching.keyword !== undefined) * 2 + Number(matching.tags !== undefined)]!;
    const rows = await page(
      db,
      workspaceId,
      matching.keyword ?? "",
      matching.tags?.list ?? null,
      matching.tags?.count ?? 0,
      limit,
      offset,
    );
    // A page past the end has no row to carry the total: only then is it counted apart.
    const total =
      rows[0]?.matching_total ??
      (offset === 0
        ? 0
        : (
            await datasetsMatching(db, features, workspaceId, matching)
              .select((eb) => eb.fn.countAll<number>().as("total"))
              .executeTakeFirstOrThrow()
          ).total);
    return { items: rows.map((row) => overviewFromRow(row as unknown as OverviewRow)), total: Number(total) };
  };
}
