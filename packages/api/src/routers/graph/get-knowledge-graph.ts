import { replicaReads } from "../../procedures/read-routing";
import { getKnowledgeGraph as readKnowledgeGraph } from "../../services/graph/knowledge-graph";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { getKnowledgeGraphMeta, ZGetKnowledgeGraphInput, ZKnowledgeGraph } from "./get-knowledge-graph.types";

export const getKnowledgeGraph = anonymousDailyProcedure
  .use(replicaReads)
  .meta(getKnowledgeGraphMeta)
  .input(ZGetKnowledgeGraphInput)
  .output(ZKnowledgeGraph)
  .query(({ ctx, input }) => readKnowledgeGraph(ctx.readDb, input));
