import { adminRouter } from "./routers/admin";
import { lifecycleRouter } from "./routers/admin/lifecycle";
import { agentsRouter } from "./routers/agents";
import { correctionsRouter } from "./routers/corrections";
import { entitiesRouter } from "./routers/entities";
import { getPartnerFeed } from "./routers/feed/get-partner-feed";
import { exportPartnerFeed } from "./routers/feed/export-partner-feed";
import { getPartnerFeedChanges } from "./routers/feed/get-partner-feed-changes";
import { getKnowledgeGraph } from "./routers/graph/get-knowledge-graph";
import { apiKeysRouter } from "./routers/keys";
import { leadsRouter } from "./routers/leads";
import { ownerRouter } from "./routers/owner";
import { pagesRouter } from "./routers/pages";
import { searchRouter } from "./routers/search";
import { webhooksRouter } from "./routers/webhooks";
import { createCallerFactory, router } from "./procedures/trpc-instance";
import { serveProcedures, type RouterProcedures } from "./services/agents/agent-operations";

export const appRouter = router({
  search: searchRouter,
  entities: entitiesRouter,
  feed: router({ getPartnerFeed, getPartnerFeedChanges, exportPartnerFeed }),
  graph: router({ getKnowledgeGraph }),
  agents: agentsRouter,
  leads: leadsRouter,
  owner: ownerRouter,
  apiKeys: apiKeysRouter,
  lifecycle: lifecycleRouter,
  admin: adminRouter,
  webhooks: webhooksRouter,
  corrections: correctionsRouter,
  pages: pagesRouter,
});

serveProcedures(appRouter._def.procedures as unknown as RouterProcedures);

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
