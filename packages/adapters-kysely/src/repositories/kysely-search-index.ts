import type { SearchField } from "@service-api/domain";
import type { ScoringQuery, SearchIndex, SearchStatistics, SegmentHit } from "@service-api/ports";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { documentFilterSql } from "./document-filter-sql.js";
import { toFlag } from "./rows.js";

interface UnitScoreRow {
  segment_id: string;
  child_id: string | null;
  score: number | string;
}

/** What a segment `c` of document `d` needs to be retrieved. */
const RETRIEVABLE_SEGMENT = sql`c.enabled = ${toFlag(true)} and c.status = 'completed'`;
const RETRIEVABLE_DOCUMENT = sql`d.indexing_status = 'completed' and d.enabled = ${toFlag(true)}
  and d.archived = ${toFlag(false)}`;
const RETRIEVABLE = sql`${RETRIEVABLE_SEGMENT} and ${RETRIEVABLE_DOCUMENT}`;
/**
 * A narrowed search passing at most this many documents sends them as a list (a parameter); one
 * passing more (or their units more than `LISTED_UNITS`) takes the best scores first, which a
 * broad filter keeps enough of.
 */
const LISTED_DOCUMENTS = 2000;
/** ... and holding at most this many units has their postings scored among their units alone. */
const LISTED_UNITS = 50_000;

/**
 * BM25 over `search_postings` (0014/0022, each with its unit's lengths): one seek per query term
 * into the (dataset, term) key, each posting's part of its unit's score summed in the database,
 * the units' best per segment kept for segments that can be retrieved, then the top k. The same
 * statement on both stores, its constants sent as double precision, so both score alike.
 */
export class KyselySearchIndex implements SearchIndex {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {}

  /** The dataset's statistics and the terms' document frequencies, in one statement (a row a term found). */
  async statistics(
    datasetId: string,
    field: SearchField,
    terms: readonly string[],
  ): Promise<SearchStatistics> {
    const asked = [...new Set(terms)];
    const frequencies =
      asked.length === 0
        ? sql`select null as term, 0 as df where 1 = 0`
        : sql`select p.term, count(*) as df
            from search_postings p
            where p.dataset_id = ${datasetId} and p.term in (${sql.join(asked)})
              ${field === "content" ? sql`and p.content_tf > 0` : sql``}
            group by p.term`;
    const { rows } = await sql<{
      units: number | string;
      content_units: number | string;
      content_length: number | string;
      keyword_length: number | string;
      term: string | null;
      df: number | string | null;
    }>`select st.units, st.content_units, st.content_length, st.keyword_length, f.term, f.df
      from search_stats st
      left join (${frequencies}) f on 1 = 1
      where st.dataset_id = ${datasetId}`.execute(this.db);
    const documentFrequencies = new Map<string, number>();
    for (const row of rows) if (row.term !== null) documentFrequencies.set(row.term, Number(row.df));
    const [stats] = rows;
    if (!stats) return { units: 0, totalLength: 0, documentFrequencies };
    const content = { units: Number(stats.content_units), totalLength: Number(stats.content_length) };
    return field === "content"
      ? { ...content, documentFrequencies }
      : {
          units: Number(stats.units),
          totalLength: content.totalLength + Number(stats.keyword_length),
          documentFrequencies,
        };
  }

  async topSegments(query: ScoringQuery): Promise<SegmentHit[]> {
    if (query.weights.size === 0 || query.topK < 1) return [];
    const hits = await this.#ranked(query);
    await this.#addChildren(query, hits);
    return hits;
  }

  /**
   * The best scores first when every document can hold them. A narrowed search (a metadata
   * filter, given documents) reads the documents it passes first, since no planner can guess a
   * filter's share (PostgreSQL takes half, and hashed every unit of a 1M dataset for a 1% filter):
   * a few are sent as a list, whose units their index serves; many take the best scores first,
   * the filter checked on those.
   */
  async #ranked(query: ScoringQuery): Promise<SegmentHit[]> {
    const narrowing = this.#narrowing(query);
    if (!narrowing) return (await this.#bestRetrievable(query)) ?? (await this.#retrievable(query));
    const { rows: passing } = await sql<{ id: string }>`
      select d.id from documents d
      where d.dataset_id = ${query.datasetId} and ${RETRIEVABLE_DOCUMENT} and ${narrowing}
      limit ${LISTED_DOCUMENTS + 1}`.execute(this.db);
    if (passing.length === 0) return [];
    if (passing.length <= LISTED_DOCUMENTS) {
      const { features } = this;
      const list = features.listParameter(passing.map((row) => row.id));
      const { rows } = await sql<{ units: number | string }>`
        select count(*) as units from (
          select 1 from search_units u
          where ${features.inList(sql.ref("u.document_id"), list)}
          limit ${LISTED_UNITS + 1}) listed`.execute(this.db);
      if (Number(rows[0]!.units) <= LISTED_UNITS) return this.#retrievableAmong(query, list, narrowing);
    }
    return (await this.#bestRetrievable(query, narrowing)) ?? (await this.#retrievable(query, narrowing));
  }

  /**
   * The top k of the few documents `list` names (each checked again against `narrowing`): their
   * units' numbers by their index (0015/0023), found from the list itself (PostgreSQL's generic
   * plan of a join of the documents to their units scanned every unit); then the query's postings
   * read by their key and kept where their unit is in that set (`+` keeps SQLite from seeking each
   * unit's postings instead, one seek per unit and term), so no posting's unit is looked up (at
   * 1M segments those lookups were most of a filtered query's time); then ranked (`#rankedSegments`).
   */
  async #retrievableAmong(
    query: ScoringQuery,
    list: unknown,
    narrowing: RawBuilder<boolean>,
  ): Promise<SegmentHit[]> {
    return this.#rankedSegments(
      query,
      sql`passing as materialized (
        select u.seq
        from search_units u
        where ${this.features.inList(sql.ref("u.document_id"), list)}
          and exists (select 1 from documents d
            where d.id = u.document_id and d.dataset_id = ${query.datasetId}
              and ${RETRIEVABLE_DOCUMENT} and ${narrowing})),
      scored as materialized (
        select p.unit_seq, ${this.#score(query)} as score
        from search_postings p
        where ${this.#matchingPostings(query)} and +p.unit_seq in (select seq from passing)
        group by p.unit_seq),
      unit_scores as (
        select (select u.segment_id from search_units u where u.seq = s.unit_seq) as segment_id, s.score
        from scored s)`,
    );
  }

  /** A narrowed search's condition on the documents row `d`; undefined for every document. */
  #narrowing(query: ScoringQuery): RawBuilder<boolean> | undefined {
    const { features } = this;
    const parts = [
      query.documentIds && features.inList(sql.ref("d.id"), features.listParameter(query.documentIds)),
      query.filter && documentFilterSql(query.filter, features),
    ].filter((part) => part !== undefined);
    return parts.length === 0 ? undefined : sql<boolean>`${sql.join(parts, sql` and `)}`;
  }

  /**
   * The top k in one statement: the documents that can be retrieved (and pass `narrowing`) found
   * first, their units by their index (0015/0023), so only their units' scores are kept; then
   * ranked (`#rankedSegments`).
   */
  async #retrievable(query: ScoringQuery, narrowing?: RawBuilder<boolean>): Promise<SegmentHit[]> {
    const documents = sql`select d.id from documents d
      where d.dataset_id = ${query.datasetId} and ${RETRIEVABLE_DOCUMENT}
        ${narrowing ? sql`and ${narrowing}` : sql``}`;
    return this.#rankedSegments(query, sql`unit_scores as (${this.#unitScores(query, { documents })})`);
  }

  /**
   * The top k segments of `scores`, common table expressions ending in `unit_scores` (segment_id,
   * score): each segment's best unit, its position looked up if it can be retrieved (a sub-select:
   * as a join, PostgreSQL hashed every chunk of a 100k dataset to rank 60), then ranked.
   */
  async #rankedSegments(query: ScoringQuery, scores: RawBuilder<unknown>): Promise<SegmentHit[]> {
    const { rows } = await sql<{ segment_id: string; score: number | string }>`
      with ${scores},
      segment_scores as (
        select s.segment_id, max(s.score) as score,
          (select c.position from chunks c where c.id = s.segment_id and ${RETRIEVABLE_SEGMENT}) as position
        from unit_scores s
        group by s.segment_id)
      select segment_id, score
      from segment_scores
      where position is not null
      order by score desc, position, segment_id
      limit ${query.topK}`.execute(this.db);
    return rows.map((row) => ({ segmentId: row.segment_id, score: Number(row.score), children: [] }));
  }

  /**
   * The top k from the best scores first: the best `4k` (at least 40) units by score, summed from
   * their postings alone (0015/0023), with every unit tied with the last of them (up to four times
   * as many rows in all), then their segments and which of those can be retrieved, in the same
   * statement (a few lookups each, instead of for every unit scored). Exact: a segment not read
   * scores below the last unit read, or ties with it when the ties did not all fit; so once k
   * segments are kept and the ties are all read (or the k-th scores above the last), none can rank
   * higher. Undefined when two tries (the second reading 16k) do not settle it.
   */
  async #bestRetrievable(
    query: ScoringQuery,
    narrowing?: RawBuilder<boolean>,
  ): Promise<SegmentHit[] | undefined> {
    for (let read = Math.max(4 * query.topK, 40); read <= 16 * Math.max(query.topK, 10); read *= 4) {
      const most = 4 * read;
      // Each unit kept, its segment by a lookup (a sub-select, which no plan makes a join:
      // PostgreSQL hashed every unit of a 10k dataset to join 160), then that segment's position
      // if it can be retrieved (and passes `narrowing`), by another.
      const { rows: best } = await sql<{
        segment_id: string;
        score: number | string;
        position: number | string | null;
      }>`
        with scored as materialized (
          select p.unit_seq, ${this.#score(query)} as score
          from search_postings p
          where ${this.#matchingPostings(query)}
          group by p.unit_seq),
        bound as (select score from scored order by score desc limit 1 offset ${read - 1}),
        best as (
          select s.unit_seq, s.score
          from scored s
          where not exists (select 1 from bound) or s.score >= (select score from bound)
          order by s.score desc, s.unit_seq
          limit ${most}),
        found as (
          select (select u.segment_id from search_units u where u.seq = b.unit_seq) as segment_id,
            b.score, b.unit_seq
          from best b)
        select f.segment_id, f.score,
          (select c.position from chunks c join documents d on d.id = c.document_id
            where c.id = f.segment_id and ${RETRIEVABLE} ${narrowing ? sql`and ${narrowing}` : sql``}) as position
        from found f
        order by f.score desc, f.unit_seq`.execute(this.db);
      // A segment's score is its best unit's: the first of its rows.
      const scores = new Map<string, number>();
      const positions = new Map<string, number>();
      for (const row of best) {
        if (scores.has(row.segment_id)) continue;
        scores.set(row.segment_id, Number(row.score));
        if (row.position !== null) positions.set(row.segment_id, Number(row.position));
      }
      const kept = [...scores]
        .map(([segmentId, score]) => ({ segmentId, score }))
        .filter((hit) => positions.has(hit.segmentId))
        .sort(
          (a, b) =>
            b.score - a.score ||
            positions.get(a.segmentId)! - positions.get(b.segmentId)! ||
            (a.segmentId < b.segmentId ? -1 : a.segmentId > b.segmentId ? 1 : 0),
        );
      const everyUnit = best.length < read;
      const everyTie = best.length < most;
      const settled =
        everyUnit ||
        (kept.length >= query.topK && (everyTie || kept[query.topK - 1]!.score > Number(best.at(-1)!.score)));
      if (settled) return kept.slice(0, query.topK).map((hit) => ({ ...hit, children: [] }));
    }
    return undefined;
  }

  /**
   * The query's postings (in `p`): one seek per term into the (dataset, term) key, only those
   * with the term in their content when the search is of content alone.
   */
  #matchingPostings(query: ScoringQuery): RawBuilder<boolean> {
    const terms = [...query.weights.keys()];
    return sql<boolean>`p.dataset_id = ${query.datasetId}
      and p.term in (${sql.join(terms)})
      ${query.field === "content" ? sql`and p.content_tf > 0` : sql``}`;
  }

  /** A unit's BM25 score: its postings' parts summed, each from its term's weight and its own counts. */
  #score(query: ScoringQuery): RawBuilder<number> {
    const { real } = this.features;
    const content = query.field === "content";
    const tf = content ? sql`p.content_tf` : sql`(p.content_tf + p.keyword_tf)`;
    const length = content ? sql`p.content_length` : sql`(p.content_length + p.keyword_length)`;
    const weight = sql`case p.term ${sql.join(
      [...query.weights].map(([term, value]) => sql`when ${term} then ${real(value)}`),
      sql` `,
    )} end`;
    const k1 = real(query.k1);
    const norm = sql`(${real(1 - query.b)} + ${real(query.b / query.averageLength)} * ${length})`;
    return sql<number>`sum(${weight} * ${tf} * ${real(query.k1 + 1)} / (${tf} + ${k1} * ${norm}))`;
  }

  /** The scores of the units of these segments, or of these documents, with their segments and children. */
  #unitScores(
    query: ScoringQuery,
    only: { segmentIds: readonly string[] } | { documents: RawBuilder<unknown> },
  ): RawBuilder<UnitScoreRow> {
    const within =
      "segmentIds" in only
        ? sql`u.segment_id in (${sql.join(only.segmentIds)})`
        : sql`u.document_id in (${only.documents})`;
    return sql<UnitScoreRow>`
      select u.segment_id, u.child_id, ${this.#score(query)} as score
      from search_postings p
      join search_units u on u.seq = p.unit_seq
      where ${this.#matchingPostings(query)} and ${within}
      group by u.seq, u.segment_id, u.child_id`;
  }

  /** The matching child chunks of the segments found, best first (then by position), each with its score. */
  async #addChildren(query: ScoringQuery, hits: SegmentHit[]): Promise<void> {
    if (hits.length === 0) return;
    const { rows } = await sql<UnitScoreRow>`
      with unit_scores as (${this.#unitScores(query, { segmentIds: hits.map((hit) => hit.segmentId) })})
      select s.segment_id, s.child_id, s.score
      from unit_scores s
      join child_chunks cc on cc.id = s.child_id
      order by s.score desc, cc.position, s.child_id`.execute(this.db);
    const bySegment = new Map(hits.map((hit) => [hit.segmentId, hit]));
    for (const row of rows)
      bySegment.get(row.segment_id)?.children.push({ childId: row.child_id!, score: Number(row.score) });
  }
}
