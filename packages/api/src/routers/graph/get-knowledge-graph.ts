import { getKnowledgeGraph as readKnowledgeGraph } from "../../services/graph/knowledge-graph";
import { v2Procedure } from "../../trpc";
import { getKnowledgeGraphMeta, ZGetKnowledgeGraphInput, ZKnowledgeGraph } from "./get-knowledge-graph.types";

export const getKnowledgeGraph = v2Procedure
  .meta(getKnowledgeGraphMeta)
  .input(ZGetKnowledgeGraphInput)
  .output(ZKnowledgeGraph)
  .query(({ ctx, input }) => readKnowledgeGraph(ctx.db, input));
