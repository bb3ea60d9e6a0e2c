import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { graphqlSdl } from "./schema";

/** Writes apps/server/schema.graphql from the code; graphql-schema.test.ts fails while the two differ. */
const target = fileURLToPath(new URL("../../schema.graphql", import.meta.url));
writeFileSync(target, graphqlSdl());
process.stdout.write(`wrote ${target}\n`);
