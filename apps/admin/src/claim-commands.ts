import type { Command } from "commander";
import { adminClientFrom } from "./admin-client";

export function registerClaimCommands(program: Command): void {
  const claim = program.command("claim").description("verify facts on a running server");

  claim
    .command("verify <slug> <property>")
    .description("make the current value of a property admin-verified (a new claim superseding it; history keeps who said it first)")
    .option("--json", "print JSON")
    .action(async (slug: string, property: string, options: { json?: boolean }, command: Command) => {
      // The server names the properties it knows: an unknown one is its 400, said in its words.
      const result = await adminClientFrom(command).admin.verifyClaim.mutate({ slug, property: property as never });
      if (options.json) return console.log(JSON.stringify(result, null, 2));
      const value = JSON.stringify(result.claim.value);
      console.log(
        result.verified
          ? `${result.slug}\t${result.property}=${value}\tadmin_verified (was ${result.previous?.verification ?? "?"} from ${result.previous?.source ?? "?"})`
          : `${result.slug}\t${result.property}=${value}\talready admin_verified; nothing written`,
      );
    });
}
