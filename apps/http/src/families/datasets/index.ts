import {
  CreateDataset,
  DeleteDataset,
  GetDataset,
  ListDatasets,
  OpenDataset,
  UpdateDataset,
} from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { notifying } from "../../background/job-signal.js";
import { defineFamily } from "../family.js";
import { datasetOperations } from "./operations.js";

export interface DatasetUseCases {
  listDatasets: ListDatasets;
  getDataset: GetDataset;
  /** The dataset an operation names, checked (404, 403): what dataset operations take. */
  openDataset: OpenDataset;
  createDataset: CreateDataset;
  updateDataset: UpdateDataset;
  deleteDataset: DeleteDataset;
}

/** Knowledge bases (datasets): list them, read one, create, change and delete them. */
export const datasetsFamily = defineFamily({
  name: "datasets",
  token: Symbol("DatasetUseCases") as InjectionToken<DatasetUseCases>,
  useCases: ({ store, repositories, ids, clock, jobSignal }) => ({
    listDatasets: new ListDatasets(repositories.datasets),
    getDataset: new GetDataset(repositories.datasets),
    openDataset: new OpenDataset(repositories.datasets),
    createDataset: new CreateDataset(repositories.datasets, repositories.workspaces, ids, clock),
    updateDataset: new UpdateDataset(repositories.datasets, repositories.workspaces, clock),
    deleteDataset: notifying(new DeleteDataset(store, ids, clock), jobSignal),
  }),
  operations: datasetOperations,
});
