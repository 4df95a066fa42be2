import type { Worker } from "node:cluster";

/** The primary's word to its workers: drain and stop, or end the drain. */
const STOP = "service-api:stop";
interface StopMessage {
  type: typeof STOP;
  signal: string;
  endDrain: boolean;
}

/**
 * Tells a worker to drain and stop (`endDrain`: to end its drain), by message rather than a signal:
 * a signal sent to the whole process group reaches the worker too, and two signals would end its
 * drain at once. A worker the message cannot reach is signalled: SIGTERM starts its drain, and
 * SIGKILL ends it (a worker's own signals never end its drain).
 */
export function stopWorker(worker: Worker, signal: string, endDrain: boolean): void {
  const message: StopMessage = { type: STOP, signal, endDrain };
  const signalled = () => worker.process.kill(endDrain ? "SIGKILL" : "SIGTERM");
  if (!worker.isConnected()) {
    signalled();
    return;
  }
  worker.send(message, (error: Error | null) => {
    if (error) signalled();
  });
}

type StopHandler = (signal: string, endDrain: boolean) => void;

/**
 * In a worker, before it starts serving: hears the primary's word from now on (it may come while
 * the worker starts) and returns how to hand it to `stop` once the worker serves, what was heard
 * before included.
 */
export function heedPrimaryStops(): (stop: StopHandler) => void {
  const heard: StopMessage[] = [];
  let handler: StopHandler | undefined;
  process.on("message", (message: unknown) => {
    const word = message as Partial<StopMessage> | null;
    if (typeof word !== "object" || word?.type !== STOP) return;
    const stop = { type: STOP, signal: String(word.signal), endDrain: word.endDrain === true } as const;
    if (handler) handler(stop.signal, stop.endDrain);
    else heard.push(stop);
  });
  return (stop) => {
    handler = stop;
    for (const { signal, endDrain } of heard.splice(0)) stop(signal, endDrain);
  };
}
