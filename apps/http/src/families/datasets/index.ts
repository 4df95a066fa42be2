import { GetDataset, ListDatasets, OpenDataset } from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { defineFamily } from "../family.js";
import { datasetOperations } from "./operations.js";

export interface DatasetUseCases {
  listDatasets: ListDatasets;
  getDataset: GetDataset;
  /** The dataset an operation names, checked (404, 403): what dataset operations take. */
  openDataset: OpenDataset;
}

/** Knowledge bases (datasets): list them, read one. */
export const datasetsFamily = defineFamily({
  name: "datasets",
  token: Symbol("DatasetUseCases") as InjectionToken<DatasetUseCases>,
  useCases: ({ repositories }) => ({
    listDatasets: new ListDatasets(repositories.datasets),
    getDataset: new GetDataset(repositories.datasets),
    openDataset: new OpenDataset(repositories.datasets),
  }),
  operations: datasetOperations,
});
