import type { Aggregator } from "prom-client";

/** One series of a metric in `registry.getMetricsAsJSON()`: a histogram's carry `metricName`. */
export interface SeriesJSON {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** One metric of `registry.getMetricsAsJSON()`, as it crosses the cluster's IPC channel. */
export interface MetricJSON {
  name: string;
  help: string;
  type: string;
  aggregator: Aggregator;
  values: SeriesJSON[];
}

/**
 * The series of a process's metrics that never go down while it lives, and that the cluster sums:
 * counters, histograms' buckets, counts and sums, summaries' counts and sums. Gauges, and
 * summaries' quantiles, are left out: a dead process's are no longer true.
 */
export function countedSeries(metrics: readonly MetricJSON[]): MetricJSON[] {
  return metrics.flatMap((metric) => {
    if (metric.aggregator !== "sum") return [];
    const values =
      metric.type === "counter" || metric.type === "histogram"
        ? metric.values
        : metric.type === "summary"
          ? metric.values.filter((series) => /_(?:sum|count)$/.test(series.metricName ?? ""))
          : [];
    return values.length > 0 ? [{ ...metric, values }] : [];
  });
}

/**
 * The baseline once a dead process's last counted series are added into it: each series summed
 * with the baseline's of the same metric and labels, new series kept as they are. Neither argument
 * changes.
 */
export function retire(baseline: readonly MetricJSON[], dead: readonly MetricJSON[]): MetricJSON[] {
  const merged = new Map<string, { metric: MetricJSON; series: Map<string, SeriesJSON> }>();
  for (const metric of [...baseline, ...countedSeries(dead)]) {
    let kept = merged.get(metric.name);
    if (!kept) {
      kept = { metric, series: new Map() };
      merged.set(metric.name, kept);
    }
    for (const series of metric.values) {
      const key = seriesKey(series);
      const sum = kept.series.get(key);
      kept.series.set(key, sum ? { ...sum, value: sum.value + series.value } : { ...series });
    }
  }
  return [...merged.values()].map(({ metric, series }) => ({ ...metric, values: [...series.values()] }));
}

function seriesKey({ metricName, labels }: SeriesJSON): string {
  const sorted = Object.keys(labels)
    .sort()
    .map((name) => [name, String(labels[name])]);
  return JSON.stringify([metricName ?? "", sorted]);
}
