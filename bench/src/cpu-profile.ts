import { readFileSync } from "node:fs";

/** The parts of V8's `.cpuprofile` read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package of the store (`body-parser`), a Node module, ours, or V8's own. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName || "(native)";
  const inStore = /node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/.exec(url);
  if (inStore) return inStore[1]!.replace("+", "/");
  if (url.startsWith("node:")) return url;
  const ours = /\/(apps|packages|bench)\/([^/]+)\//.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

export interface CpuShare {
  name: string;
  /** CPU µs a request, sampled (the profiler's own cost included). */
  microsPerRequest: number;
}

/**
 * A profile's samples between `from` and `to` (microseconds of the monotonic clock, as V8 stamps
 * them), summed by where their code lives and by function, in µs per request of `requests`.
 */
export function cpuShares(
  file: string,
  window: { from: number; to: number; requests: number },
): { places: CpuShare[]; functions: CpuShare[]; busy: number } {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let time = profile.startTime;
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    if (time < window.from || time > window.to) return;
    const { functionName, url, lineNumber } = frames.get(id)!;
    if (functionName === "(idle)") return;
    const place = placeOf(url, functionName);
    busy += delta;
    places.set(place, (places.get(place) ?? 0) + delta);
    const name = `${functionName || "(anonymous)"} ${place}${url ? `:${lineNumber + 1}` : ""}`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
  });
  const perRequest = (totals: Map<string, number>) =>
    [...totals]
      .map(([name, micros]) => ({ name, microsPerRequest: micros / window.requests }))
      .sort((a, b) => b.microsPerRequest - a.microsPerRequest);
  return { places: perRequest(places), functions: perRequest(functions), busy: busy / window.requests };
}
