import {
  type Dataset,
  ensureTechniqueWithoutModel,
  type IndexingTechnique,
  InvalidParamError,
} from "@service-api/domain";

export const TECHNIQUE_REQUIRED = "indexing_technique is required.";

/**
 * The technique a document is indexed with: the dataset's; a dataset without one takes the body's
 * (required then: "indexing_technique is required."), where `high_quality` needs a model (400
 * `provider_not_initialize`). A body's technique other than the dataset's is ignored, as in Dify.
 */
export function technique(
  dataset: Dataset,
  requested: IndexingTechnique | null | undefined,
): IndexingTechnique {
  if (dataset.indexingTechnique !== null) return dataset.indexingTechnique;
  if (requested === undefined || requested === null)
    throw new InvalidParamError("indexing_technique", TECHNIQUE_REQUIRED);
  ensureTechniqueWithoutModel(requested);
  return requested;
}
