import { describe, expect, it } from "vitest";
import { countedSeries, type MetricJSON, retire } from "./retired-metrics.js";

const requests = (values: MetricJSON["values"]): MetricJSON => ({
  name: "requests_total",
  help: "Requests.",
  type: "counter",
  aggregator: "sum",
  values,
});
const duration = (count: number, sum: number, inFirstBucket: number): MetricJSON => ({
  name: "duration_seconds",
  help: "Durations.",
  type: "histogram",
  aggregator: "sum",
  values: [
    { labels: { le: 0.1, route: "/a" }, value: inFirstBucket, metricName: "duration_seconds_bucket" },
    { labels: { le: "+Inf", route: "/a" }, value: count, metricName: "duration_seconds_bucket" },
    { labels: { route: "/a" }, value: sum, metricName: "duration_seconds_sum" },
    { labels: { route: "/a" }, value: count, metricName: "duration_seconds_count" },
  ],
});
const gauge = (name: string, value: number, aggregator: MetricJSON["aggregator"] = "sum"): MetricJSON => ({
  name,
  help: "A gauge.",
  type: "gauge",
  aggregator,
  values: [{ labels: {}, value }],
});

describe("countedSeries", () => {
  it("keeps counters and histograms, summaries' counts and sums, and no gauge", () => {
    const summary: MetricJSON = {
      name: "sizes",
      help: "Sizes.",
      type: "summary",
      aggregator: "sum",
      values: [
        { labels: { quantile: 0.5 }, value: 3 },
        { labels: {}, value: 30, metricName: "sizes_sum" },
        { labels: {}, value: 10, metricName: "sizes_count" },
      ],
    };
    const counted = countedSeries([
      requests([{ labels: { status: 200 }, value: 4 }]),
      duration(4, 0.2, 3),
      gauge("in_flight", 2),
      gauge("max_fds", 1024, "max"),
      summary,
      requests([]),
    ]);
    expect(counted).toEqual([
      requests([{ labels: { status: 200 }, value: 4 }]),
      duration(4, 0.2, 3),
      { ...summary, values: summary.values.slice(1) },
    ]);
  });

  it("leaves out counters the cluster does not sum", () => {
    expect(countedSeries([{ ...requests([{ labels: {}, value: 1 }]), aggregator: "max" }])).toEqual([]);
  });
});

describe("retire", () => {
  it("adds a dead worker's last counted series into the baseline, by metric and labels", () => {
    const baseline = retire(
      [],
      [requests([{ labels: { status: 200, route: "/a" }, value: 4 }]), duration(4, 0.2, 3)],
    );
    const dead = [
      requests([
        { labels: { route: "/a", status: "200" }, value: 6 },
        { labels: { route: "/a", status: 404 }, value: 1 },
      ]),
      duration(2, 0.5, 0),
      gauge("in_flight", 3),
    ];
    expect(retire(baseline, dead)).toEqual([
      requests([
        { labels: { status: 200, route: "/a" }, value: 10 },
        { labels: { route: "/a", status: 404 }, value: 1 },
      ]),
      duration(6, 0.7, 3),
    ]);
  });

  it("changes neither argument", () => {
    const baseline = [requests([{ labels: {}, value: 1 }])];
    const dead = [requests([{ labels: {}, value: 2 }])];
    const copies = structuredClone([baseline, dead]);
    retire(baseline, dead);
    expect([baseline, dead]).toEqual(copies);
  });
});
