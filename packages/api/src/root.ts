import { agencyRouter } from "./routers/agency";
import { accountRouter } from "./routers/account";
import { adminRouter } from "./routers/admin";
import { adminAccountsRouter } from "./routers/admin/accounts";
import { lifecycleRouter } from "./routers/admin/lifecycle";
import { adminOwnershipRouter } from "./routers/admin/ownership";
import { agentsRouter } from "./routers/agents";
import { billingRouter } from "./routers/billing";
import { correctionsRouter } from "./routers/corrections";
import { entitiesRouter } from "./routers/entities";
import { getPartnerFeed } from "./routers/feed/get-partner-feed";
import { exportPartnerFeed } from "./routers/feed/export-partner-feed";
import { getPartnerFeedChanges } from "./routers/feed/get-partner-feed-changes";
import { getKnowledgeGraph } from "./routers/graph/get-knowledge-graph";
import { apiKeysRouter } from "./routers/keys";
import { leadsRouter } from "./routers/leads";
import { ownerRouter } from "./routers/owner";
import { ownershipRouter } from "./routers/ownership";
import { pagesRouter } from "./routers/pages";
import { searchRouter } from "./routers/search";
import { webhooksRouter } from "./routers/webhooks";
import { createCallerFactory, router } from "./procedures/trpc-instance";
import { serveProcedures, type RouterProcedures } from "./services/agents/agent-operations";

const domainRouters = {
  search: searchRouter,
  entities: entitiesRouter,
  graph: router({ getKnowledgeGraph }),
  agents: agentsRouter,
  leads: leadsRouter,
  owner: ownerRouter,
  ownership: ownershipRouter,
  apiKeys: apiKeysRouter,
  lifecycle: lifecycleRouter,
  admin: adminRouter,
  webhooks: webhooksRouter,
  corrections: correctionsRouter,
  pages: pagesRouter,
  account: accountRouter,
  agency: agencyRouter,
  billing: billingRouter,
  accounts: adminAccountsRouter,
  ownershipAdmin: adminOwnershipRouter,
};
const feedPages = { getPartnerFeed, getPartnerFeedChanges };

/** What the tRPC door serves, and the MCP and GraphQL doors call. */
export const appRouter = router({ ...domainRouters, feed: router(feedPages) });

/**
 * What the REST doors serve and the OpenAPI document describes: appRouter's procedures and the
 * partner export. The export is a stream its own REST door writes with backpressure and bounds
 * (apps/server partner-feed-door.ts); over tRPC it was charged and held a slot it never served.
 */
export const restRouter = router({ ...domainRouters, feed: router({ ...feedPages, exportPartnerFeed }) });

serveProcedures(appRouter._def.procedures as unknown as RouterProcedures);

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
export const createRestCaller = createCallerFactory(restRouter);
