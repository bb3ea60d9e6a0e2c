import { router } from "../../procedures/trpc-instance";
import { createApiKey } from "./create-api-key";
import { listApiKeys } from "./list-api-keys";
import { revokeApiKey } from "./revoke-api-key";

/** Admin-only key management; served over tRPC for the admin CLI, not part of the public REST API. */
export const apiKeysRouter = router({ create: createApiKey, list: listApiKeys, revoke: revokeApiKey });
