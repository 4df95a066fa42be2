import type { ImportFile } from "../format/import-file-schema.js";
import { heldElsewhere } from "./write-context.js";

/** The datasets holding each stored processing rule id the file names (`findProcessRuleHolders`). */
export type RuleHolders = Map<string, string[]>;

/** Every processing rule id of the file: its datasets' and their documents'. */
export function processRuleIdsOf(file: ImportFile): string[] {
  return file.workspaces.flatMap((workspace) =>
    workspace.datasets.flatMap((dataset) => [
      ...(dataset.process_rule ? [dataset.process_rule.id!] : []),
      ...dataset.documents.map((document) => document.process_rule!.id!),
    ]),
  );
}

/**
 * Why the dataset may not take this processing rule id: another dataset holds it (a rule is its
 * dataset's, as in Dify, where rules are rows of their dataset); undefined when none holds it, or
 * when the dataset does already.
 */
export function ruleHeldElsewhere(
  holders: RuleHolders,
  ruleId: string,
  datasetId: string,
): string | undefined {
  const held = holders.get(ruleId);
  return held && !held.includes(datasetId)
    ? heldElsewhere(ruleId, "another dataset's processing rule")
    : undefined;
}
