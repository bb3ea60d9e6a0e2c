import { compare, getBuyerQuestions, getOffers } from "./routers/entities/business-extras";
import { getAgentProfile } from "./routers/entities/get-agent-profile";
import { getEntityById } from "./routers/entities/get-entity-by-id";
import { getEntityProfile } from "./routers/entities/get-entity-profile";
import { availableCities } from "./routers/discovery/available-cities";
import { getListicle } from "./routers/discovery/get-listicle";
import { categoryLeaders, searchCategoryProcedure } from "./routers/discovery/search-category";
import { searchKeyword } from "./routers/discovery/search-keyword";
import { leadsRouter } from "./routers/leads/leads";
import { ownerRouter } from "./routers/owner/owner";
import { getAgentDiscovery, getAgenticGateway } from "./routers/agents/agents";
import { getPartnerFeed } from "./routers/feed/get-partner-feed";
import { getKnowledgeGraph } from "./routers/graph/get-knowledge-graph";
import { adminAccessRouter } from "./routers/admin/access";
import { lifecycleRouter } from "./routers/admin/lifecycle";
import { apiKeysRouter } from "./routers/keys/api-keys";
import { lookupBusinesses } from "./routers/search/lookup-businesses";
import { searchBusinesses } from "./routers/search/search-businesses";
import { webhooksRouter } from "./routers/webhooks/webhooks";
import { pagesRouter } from "./routers/pages/pages";
import { createCallerFactory, router } from "./trpc";

export const appRouter = router({
  search: router({ searchBusinesses, lookupBusinesses }),
  discovery: router({ searchCategory: searchCategoryProcedure, categoryLeaders, searchKeyword, getListicle, availableCities }),
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
