import { compare, getBuyerQuestions, getOffers } from "./routers/entities/business-extras";
import { getAgentProfile } from "./routers/entities/get-agent-profile";
import { getEntityById } from "./routers/entities/get-entity-by-id";
import { getEntityProfile } from "./routers/entities/get-entity-profile";
import { leadsRouter } from "./routers/leads/leads";
import { ownerRouter } from "./routers/owner/owner";
import { getAgentDiscovery, getAgenticGateway } from "./routers/agents/agents";
import { getPartnerFeed } from "./routers/feed/get-partner-feed";
import { getKnowledgeGraph } from "./routers/graph/get-knowledge-graph";
import { adminAccessRouter } from "./routers/admin/access";
import { lifecycleRouter } from "./routers/admin/lifecycle";
import { apiKeysRouter } from "./routers/keys/api-keys";
import { searchRouter } from "./routers/search";
import { webhooksRouter } from "./routers/webhooks/webhooks";
import { pagesRouter } from "./routers/pages/pages";
import { createCallerFactory, router } from "./trpc";

export const appRouter = router({
  search: searchRouter,
  entities: router({ getEntityProfile, getEntityById, getAgentProfile, getBuyerQuestions, getOffers, compare }),
  feed: router({ getPartnerFeed }),
  graph: router({ getKnowledgeGraph }),
  agents: router({ getAgentDiscovery, getAgenticGateway }),
  leads: leadsRouter,
  owner: ownerRouter,
  apiKeys: apiKeysRouter,
  lifecycle: lifecycleRouter,
  admin: adminAccessRouter,
  webhooks: webhooksRouter,
  pages: pagesRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
