import type { Command } from "commander";
import type { RouterOutputs } from "@directory/sdk";
import { adminClientFrom } from "./admin-client";

/*
 * The operator's side of ownership: `claims` (plural) is the queue of claims of ownership; the
 * singular `claim` verifies facts (claim-commands.ts). A listing's owners are under `business`
 * (registerOwnerCommands adds them to that group).
 */

type OwnershipClaim = RouterOutputs["ownershipAdmin"]["claims"]["list"][number];

function claimLine(claim: OwnershipClaim): string {
  const decided = claim.decidedAt ? `${claim.decidedBy ?? "?"} ${claim.decidedAt}` : "-";
  // One line per claim: the evidence's line breaks would split it.
  const evidence = claim.evidence?.replace(/\s+/g, " ") ?? "";
  return [claim.id, claim.createdAt, claim.status, claim.method, claim.business.slug, claim.email, claim.agencySlug ?? "-", decided, evidence].join("\t");
}

export function registerOwnershipClaimCommands(program: Command): void {
  const claims = program.command("claims").description("the queue of claims of ownership: claims by review wait for an operator");

  claims
    .command("list")
    .description("claims of one status, the pending queue oldest first: id, created, status, method, slug, email, agency (- for none), decided, evidence")
    .option("--status <status>", "pending, verified, approved, rejected or expired", "pending")
    .option("--limit <n>", "at most this many (200 at most)", "100")
    .option("--json", "print JSON")
    .action(async (options: { status: string; limit: string; json?: boolean }, command: Command) => {
      // The server names the statuses it knows: an unknown one is its 400, said in its words.
      const rows = await adminClientFrom(command).ownershipAdmin.claims.list.query({ status: options.status as never, limit: Number(options.limit) });
      if (options.json) return console.log(JSON.stringify(rows, null, 2));
      for (const row of rows) console.log(claimLine(row));
    });

  claims
    .command("approve <id>")
    .description("approve a pending claim by review: the claimant becomes an owner and the listing owner_verified")
    .option("--json", "print JSON")
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const claim = await adminClientFrom(command).ownershipAdmin.claims.approve.mutate({ id });
      console.log(options.json ? JSON.stringify(claim, null, 2) : `approved ${claim.id}: ${claim.email} owns ${claim.business.slug}`);
    });

  claims
    .command("reject <id>")
    .description("reject a pending claim (any method): no owner changes")
    .option("--json", "print JSON")
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const claim = await adminClientFrom(command).ownershipAdmin.claims.reject.mutate({ id });
      console.log(options.json ? JSON.stringify(claim, null, 2) : `rejected ${claim.id}: ${claim.email} for ${claim.business.slug}`);
    });
}

/** `business owners` and `business remove-owner`, added to the business group. */
export function registerOwnerCommands(business: Command): void {
  business
    .command("owners <slug>")
    .description("the listing's owners: email, method, decided by, since (removed ones too with --all)")
    .option("--all", "removed owners too")
    .option("--json", "print JSON")
    .action(async (slug: string, options: { all?: boolean; json?: boolean }, command: Command) => {
      const listed = await adminClientFrom(command).ownershipAdmin.owners.list.query({ slug, all: options.all === true });
      if (options.json) return console.log(JSON.stringify(listed, null, 2));
      console.log(`${listed.slug}\t${listed.name}\t${listed.ownership}\t${listed.owners.length} owners`);
      for (const owner of listed.owners) {
        const state = owner.removedAt ? `removed ${owner.removedAt}` : "owner";
        console.log(`  ${[owner.email, owner.method, owner.decidedBy, `since ${owner.verifiedAt}`, state].join("\t")}`);
      }
    });

  business
    .command("remove-owner <slug> <email>")
    .description("remove an owner: the listing turns unclaimed when its last owner goes")
    .action(async (slug: string, email: string, _options: unknown, command: Command) => {
      const result = await adminClientFrom(command).ownershipAdmin.owners.remove.mutate({ slug, email });
      console.log(`removed ${result.email} from ${result.slug}: ${result.remainingOwners} owners left, ${result.ownership}`);
    });
}
