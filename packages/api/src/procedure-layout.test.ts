import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { restRouter } from "./root";
import type { DirectoryMeta } from "./procedures/meta";

const ROUTERS = fileURLToPath(new URL("./routers", import.meta.url));

function routerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? routerFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

describe("every REST operation is findable from its path in one step", () => {
  const procedures = Object.entries(restRouter._def.procedures as unknown as Record<string, { _def: { meta?: DirectoryMeta } }>);
  const rest = procedures.filter(([, procedure]) => procedure._def.meta?.openapi);
  const files = routerFiles(ROUTERS);

  it("has REST operations to check", () => {
    expect(rest.length).toBeGreaterThan(15);
  });

  it.each(rest.map(([trpcPath, procedure]) => [procedure._def.meta!.openapi!.operationId!, trpcPath, procedure] as const))(
    "%s is defined in routers/<domain>/<operation-id>.ts",
    async (operationId, trpcPath, procedure) => {
      const matches = files.filter((file) => path.basename(file) === `${kebab(operationId)}.ts`);
      expect(matches, `${trpcPath}: one file named after ${operationId}`).toHaveLength(1);
      const exported = Object.values((await import(matches[0]!)) as Record<string, unknown>);
      expect(exported, `${matches[0]} exports the procedure ${trpcPath}`).toContain(procedure);
    },
  );
});
