import type { McpServer } from "@modelcontextprotocol/server";
import { ZSubmitCorrectionInput, ZSubmitCorrectionOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";

/** corrections.submit: a pending proposal an admin decides; it never changes a fact by itself. */
export function registerSuggestCorrection(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "suggest_correction",
    {
      title: "Report a wrong or closed fact",
      description:
        "Proposes a correct value ({property, value}) or a closure ({operatingStatus}) with evidence, for an admin to review; its status: directory://corrections/{correctionId}.",
      inputSchema: toolInput(ZSubmitCorrectionInput),
      outputSchema: toolOutput(ZSubmitCorrectionOutput),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (input) => callProcedure(() => client.corrections.submit.mutate(input)),
  );
}
