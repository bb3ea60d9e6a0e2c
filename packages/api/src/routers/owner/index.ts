import { router } from "../../trpc";
import { citations } from "./citations";
import { visibility } from "./visibility";

/** Owner self-service: always the key's own business, so no other business can be named. */
export const ownerRouter = router({ visibility, citations });
