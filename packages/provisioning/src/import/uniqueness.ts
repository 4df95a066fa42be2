/** Records a problem of the file at its JSON path. */
export type Report = (path: string, message: string) => void;

/** Names the value in a message; never a key, which is a secret. */
function describe(kind: string, value: string): string {
  if (kind === "key") return "";
  return ` ${kind.endsWith("name") ? JSON.stringify(value) : value}`;
}

/** Reports a value seen twice for the same kind, naming where it was first. */
export function uniqueness(report: Report) {
  const seen = new Map<string, string>();
  return (kind: string, value: string, path: string) => {
    const key = `${kind}\u0000${value}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, path);
    else report(path, `duplicate ${kind}${describe(kind, value)} (first at ${first})`);
  };
}

/**
 * Reports a processing rule id that two datasets of the file give, naming where it was first: a
 * rule is its dataset's (`ruleHeldElsewhere`), which a dataset's documents may share.
 */
export function oneDatasetPerRule(report: Report) {
  const first = new Map<string, { datasetId: string; path: string }>();
  return (ruleId: string, datasetId: string, path: string) => {
    const held = first.get(ruleId);
    if (held === undefined) first.set(ruleId, { datasetId, path });
    else if (held.datasetId !== datasetId)
      report(path, `duplicate processing rule ${ruleId} (first at ${held.path}, another dataset's)`);
  };
}
