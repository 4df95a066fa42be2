import type { DatasetOverview } from "@service-api/ports";

/** A dataset as the dataset object shows it: its overview, knowledge tags and custom fields included. */
export type DatasetView = DatasetOverview;
