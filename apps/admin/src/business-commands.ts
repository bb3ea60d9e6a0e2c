import type { Command } from "commander";
import { adminClientFrom } from "./admin-client";
import { readBusinessFile } from "./business-file";
import { registerOwnerCommands } from "./ownership-commands";

function print(summary: { slug: string; status: string; decommissioned: boolean; subscriptionExpiresAt: string | null; name: string }): void {
  const state = summary.decommissioned ? "decommissioned (410)" : "active";
  console.log(`${summary.slug}\t${summary.name}\t${state}\tstatus=${summary.status}\tsubscription=${summary.subscriptionExpiresAt ?? "none"}`);
}

export function registerBusinessCommands(program: Command): void {
  const business = program.command("business").description("entity lifecycle, owner verification and new businesses on a running server");

  business
    .command("decommission <slug>")
    .description("take a business out of search, the feed and agent.json (its profile answers 410)")
    .action(async (slug: string, _options: unknown, command: Command) => print(await adminClientFrom(command).lifecycle.decommission.mutate({ slug })));

  business
    .command("reactivate <slug>")
    .description("bring a business back")
    .option("--until <iso-date>", "renew an expired subscription until this date-time (e.g. 2027-12-31T00:00:00Z)")
    .action(async (slug: string, options: { until?: string }, command: Command) =>
      print(await adminClientFrom(command).lifecycle.reactivate.mutate({ slug, subscriptionExpiresAt: options.until })),
    );

  business
    .command("rename <slug> <name>")
    .description("change the name (an admin-verified claim); id and slug stay")
    .action(async (slug: string, name: string, _options: unknown, command: Command) =>
      print(await adminClientFrom(command).lifecycle.rename.mutate({ slug, name })),
    );

  business
    .command("change-slug <slug> <newSlug>")
    .description("move to a new slug; the old one keeps resolving")
    .action(async (slug: string, newSlug: string, _options: unknown, command: Command) =>
      print(await adminClientFrom(command).lifecycle.changeSlug.mutate({ slug, newSlug })),
    );

  business
    .command("verify-owner <slug>")
    .description("mark the owner as verified: the listing turns owner_verified (owner edits stay self-reported claims)")
    .action(async (slug: string, _options: unknown, command: Command) => {
      const result = await adminClientFrom(command).admin.verifyOwner.mutate({ slug });
      console.log(`${result.slug}	${result.name}	owner_verified${result.changed ? "" : " (already; nothing written)"}`);
    });

  business
    .command("unverify-owner <slug>")
    .description("withdraw the owner verification (inverse of verify-owner): the listing turns unclaimed and leaves the partner feed")
    .action(async (slug: string, _options: unknown, command: Command) => {
      const result = await adminClientFrom(command).admin.unverifyOwner.mutate({ slug });
      console.log(`${result.slug}	${result.name}	unclaimed${result.changed ? "" : " (already; nothing written)"}`);
    });

  business
    .command("add")
    .description(
      "create a business from a JSON file: name, category (slug), city (as search reads it: name, alias or slug, optionally ', CC') and any owner-editable property",
    )
    .requiredOption("--file <BUSINESS.json>", "the business as one JSON object")
    .option("--json", "print JSON")
    .action(async (options: { file: string; json?: boolean }, command: Command) => {
      const facts = readBusinessFile(options.file);
      const created = await adminClientFrom(command).admin.addBusiness.mutate(facts as never);
      if (options.json) return console.log(JSON.stringify({ id: created.id, slug: created.slug, ownership: created.ownership }, null, 2));
      console.log(`${created.slug}	${created.id}`);
    });

  registerOwnerCommands(business);
}
