/** What an import wrote (created or updated). */
export interface ImportSummary {
  workspaces: number;
  datasets: number;
  documents: number;
  apps: number;
  conversations: number;
  apiKeys: number;
}

export const emptySummary = (): ImportSummary => ({
  workspaces: 0,
  datasets: 0,
  documents: 0,
  apps: 0,
  conversations: 0,
  apiKeys: 0,
});
