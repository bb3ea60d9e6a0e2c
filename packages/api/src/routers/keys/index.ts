import { router } from "../../procedures/trpc-instance";
import { confirmKey } from "./confirm-key";
import { createApiKey } from "./create-api-key";
import { listApiKeys } from "./list-api-keys";
import { revokeApiKey } from "./revoke-api-key";

/**
 * Admin-only key management, served over tRPC for the admin CLI, not part of the public REST API;
 * and confirmKey, which any valid key passes.
 */
export const apiKeysRouter = router({ confirmKey, create: createApiKey, list: listApiKeys, revoke: revokeApiKey });
