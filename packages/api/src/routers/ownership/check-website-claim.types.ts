export { ZProvenClaimOutput as ZCheckWebsiteClaimOutput, type TProvenClaimOutput as TCheckWebsiteClaimOutput } from "./ownership.types";
