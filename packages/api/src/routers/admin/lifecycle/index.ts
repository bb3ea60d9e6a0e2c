import { router } from "../../../procedures/trpc-instance";
import { changeSlug } from "./change-slug";
import { decommission } from "./decommission";
import { reactivate } from "./reactivate";
import { rename } from "./rename";

/** Admin-only entity lifecycle; every change writes an entity.updated outbox event in its transaction. */
export const lifecycleRouter = router({ decommission, reactivate, rename, changeSlug });
