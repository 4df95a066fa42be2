/**
 * A signal this soon after the first is the same request to stop: a service manager signals every
 * process of its group (systemd's default `KillMode=control-group`) and a script runner in between
 * (`npm start`'s pnpm) passes its own on, so the server hears two at once. Later, a second signal
 * ends the drain (Ctrl-C twice).
 */
const SAME_REQUEST_MS = 500;

/** Calls `stop` for each SIGTERM and SIGINT but those that repeat the first within {@link SAME_REQUEST_MS}. */
export function onStopSignals(stop: (signal: string) => void): void {
  let firstAt: number | undefined;
  const heard = (signal: string) => {
    const now = performance.now();
    if (firstAt !== undefined && now - firstAt < SAME_REQUEST_MS) return;
    firstAt ??= now;
    stop(signal);
  };
  process.on("SIGTERM", () => heard("SIGTERM"));
  process.on("SIGINT", () => heard("SIGINT"));
}
