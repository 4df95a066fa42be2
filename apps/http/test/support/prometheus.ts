/** One sample of a scrape: its metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of Prometheus's text format (comments skipped). */
export function parseScrape(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
        labels[key!] = value!;
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The value of the sample with this name and exactly these labels (0 when there is none). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const sample = samples.find(
    (candidate) =>
      candidate.name === name && JSON.stringify(Object.entries(candidate.labels).sort()) === wanted,
  );
  return sample?.value ?? 0;
}

export async function scrape(url: string): Promise<{ samples: Sample[]; text: string }> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`scrape answered ${response.status}`);
  const text = await response.text();
  return { samples: parseScrape(text), text };
}
