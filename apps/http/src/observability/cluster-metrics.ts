import type { Cluster, Worker } from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";
import { countedSeries, type MetricJSON, retire } from "./retired-metrics.js";

/** A worker's first message: it answers metrics requests from now on. */
const READY = "service-api:metrics-ready";
/** The primary asks a worker for its registry's `getMetricsAsJSON()`... */
const REQUEST = "service-api:metrics-request";
/** ...and the worker answers with it (or with why it could not). */
const RESPONSE = "service-api:metrics-response";

/** How long a scrape waits for a worker; one that has not answered by then counts as silent. */
const WORKER_ANSWER_TIMEOUT_MS = 2_000;

interface Response {
  type: typeof RESPONSE;
  id: number;
  metrics?: MetricJSON[];
  error?: string;
}

function isMessage<T extends { type: string }>(message: unknown, type: T["type"]): message is T {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;
}

/**
 * In a worker of `WORKERS=n`: answers the primary's requests for this registry, and tells the
 * primary that it does. Other messages are ignored.
 */
export function answerPrimary(registry: Registry): void {
  const send = (message: object) => process.send?.(message, undefined, {}, () => {});
  process.on("message", (message: unknown) => {
    if (!isMessage<{ type: typeof REQUEST; id: number }>(message, REQUEST)) return;
    registry.getMetricsAsJSON().then(
      (metrics) => send({ type: RESPONSE, id: message.id, metrics }),
      (error: unknown) =>
        send({
          type: RESPONSE,
          id: message.id,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  });
  send({ type: READY });
}

/**
 * In the primary of `WORKERS=n`: every worker's metrics, aggregated by each metric's `aggregator`
 * (summed unless it says otherwise), such that no counter of the cluster goes down while the
 * primary lives. The primary keeps each worker's counted series (counters, histograms) as last
 * reported; when a worker exits, they join a baseline of retired workers that every scrape adds.
 * A worker that does not answer within the time-out counts with its last counted series and no
 * gauges. What a worker counted after the last scrape before it died is lost.
 */
export class ClusterMetrics {
  readonly contentType = AggregatorRegistry.PROMETHEUS_CONTENT_TYPE;
  /** Workers that answer requests, by id. */
  readonly #answering = new Map<number, Worker>();
  /** Each answering worker's counted series, as last reported. */
  readonly #lastCounted = new Map<number, MetricJSON[]>();
  /** Dead workers' last counted series, summed. */
  #retired: MetricJSON[] = [];
  readonly #pending = new Map<number, { workerId: number; settle: (answer: Response | undefined) => void }>();
  #nextRequest = 0;

  constructor(
    cluster: Cluster,
    private readonly timeoutMs = WORKER_ANSWER_TIMEOUT_MS,
  ) {
    cluster.on("message", (worker, message: unknown) => {
      if (isMessage(message, READY)) this.#answering.set(worker.id, worker);
      else if (isMessage<Response>(message, RESPONSE)) this.#answered(worker, message);
    });
    cluster.on("exit", (worker) => this.#exited(worker));
  }

  /** The cluster's metrics in Prometheus's text format. */
  async scrape(): Promise<string> {
    const answers = new Map<number, MetricJSON[]>();
    await Promise.all(
      [...this.#answering.values()].map(async (worker) => {
        const answer = await this.#ask(worker);
        if (answer?.error !== undefined) throw new Error(`worker ${worker.process.pid}: ${answer.error}`);
        if (answer?.metrics) answers.set(worker.id, answer.metrics);
      }),
    );
    // Workers that died during the scrape are in the baseline now, and only there.
    const parts: MetricJSON[][] = [];
    for (const [id, counted] of this.#lastCounted) parts.push(answers.get(id) ?? counted);
    parts.push(this.#retired);
    return AggregatorRegistry.aggregate(parts).metrics();
  }

  #ask(worker: Worker): Promise<Response | undefined> {
    const id = this.#nextRequest++;
    return new Promise((resolve) => {
      const settle = (answer: Response | undefined) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(answer);
      };
      const timer = setTimeout(() => settle(undefined), this.timeoutMs);
      this.#pending.set(id, { workerId: worker.id, settle });
      if (!worker.isConnected()) settle(undefined);
      else
        worker.send({ type: REQUEST, id }, (error) => {
          if (error) settle(undefined);
        });
    });
  }

  #answered(worker: Worker, answer: Response): void {
    const pending = this.#pending.get(answer.id);
    if (!pending || pending.workerId !== worker.id || !this.#answering.has(worker.id)) return;
    if (Array.isArray(answer.metrics)) this.#lastCounted.set(worker.id, countedSeries(answer.metrics));
    pending.settle(answer);
  }

  #exited(worker: Worker): void {
    this.#answering.delete(worker.id);
    const counted = this.#lastCounted.get(worker.id);
    this.#lastCounted.delete(worker.id);
    if (counted) this.#retired = retire(this.#retired, counted);
    for (const pending of [...this.#pending.values()])
      if (pending.workerId === worker.id) pending.settle(undefined);
  }
}
