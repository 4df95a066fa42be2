import { parseArgs } from "node:util";
import { DEMO } from "@service-api/provisioning";
import type { Command } from "../command.js";
import { EXIT, line } from "../io.js";
import { withAdmin } from "../runtime.js";

export const demoCommand: Command = {
  name: "demo",
  summary: "Load the demo workspace (unless stored) and print fresh demo keys",
  help: `Usage: service-api demo

Loads a small demo workspace: a knowledge base with documents, metadata and tags, a chat app with
a conversation, and a workflow app. A demo workspace stored already is kept as it is (what was done
to it through the API stays). Prints a new knowledge key and a new app key; the demo's previous
keys are revoked.`,
  async run(args, io) {
    parseArgs({ args, options: {}, allowPositionals: false });
    const keys = await withAdmin(io, (admin) => admin.loadDemo.execute());
    line(io.stdout, keys.loaded ? "Loaded the demo workspace." : "Kept the demo workspace stored already.");
    line(io.stdout, `  knowledge key:  ${keys.knowledgeKey}`);
    line(io.stdout, `  app key:        ${keys.appKey}`);
    line(io.stdout, `  dataset:        ${DEMO.datasetId}`);
    line(io.stdout, `  document:       ${DEMO.documentId}`);
    line(
      io.stdout,
      `  conversation:   ${DEMO.conversationId} (user ${DEMO.user}), variable ${DEMO.variableId}`,
    );
    line(io.stdout, "The keys are shown only now; the demo's earlier keys no longer work.");
    return EXIT.ok;
  },
};
