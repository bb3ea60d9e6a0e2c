import path from "node:path";
import ts from "typescript";

/**
 * Prints the router's procedures (kind, input, output) and the service's error codes as one
 * self-contained declaration file that needs only @trpc/server's types: what the published SDK
 * ships instead of the server's sources, so installing it never brings drizzle, PGlite or datasets.
 */
export function emitRouterTypes(apiDir: string): string {
  const configPath = path.join(apiDir, "tsconfig.json");
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error(`cannot read ${configPath}`);
  const rootFile = path.join(apiDir, "src/index.ts");
  const program = ts.createProgram([rootFile], config.options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(rootFile);
  if (!source) throw new Error(`cannot load ${rootFile}`);
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
  const exported = (name: string) => {
    const symbol = exports.find((candidate) => candidate.name === name);
    if (!symbol) throw new Error(`@directory/api does not export ${name}`);
    return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  };

  const routerType = checker.getTypeOfSymbol(exported("appRouter"));
  const def = property(routerType, "_def");
  const record = property(def, "record");
  const errorShape = property(property(property(def, "_config"), "$types"), "errorShape");
  const errorCodes = checker.getDeclaredTypeOfSymbol(exported("DomainErrorCode"));

  function property(type: ts.Type, name: string): ts.Type {
    const symbol = checker.getPropertyOfType(type, name);
    if (!symbol) throw new Error(`no property ${name} on ${checker.typeToString(type)}`);
    return checker.getTypeOfSymbol(symbol);
  }

  function printRecord(type: ts.Type, indent: string): string {
    const lines = checker.getPropertiesOfType(type).map((symbol) => {
      const value = checker.getTypeOfSymbol(symbol);
      const procedureDef = checker.getPropertyOfType(value, "_def");
      const defType = procedureDef && checker.getTypeOfSymbol(procedureDef);
      const isProcedure = defType && checker.getPropertyOfType(defType, "procedure");
      if (!defType || !isProcedure) return `${indent}  ${key(symbol.name)}: ${printRecord(value, `${indent}  `)};`;
      const kind = checker.typeToString(property(defType, "type")).replace(/"/g, "");
      const types = property(defType, "$types");
      const wrapper = kind === "query" ? "TRPCQueryProcedure" : kind === "mutation" ? "TRPCMutationProcedure" : undefined;
      if (!wrapper) throw new Error(`${symbol.name}: ${kind} procedures are not supported by the SDK`);
      const input = printType(property(types, "input"), new Set());
      const output = printType(property(types, "output"), new Set());
      return `${indent}  ${key(symbol.name)}: ${wrapper}<{ meta: object; errorShape: DirectoryErrorShape; input: ${input}; output: ${output} }>;`;
    });
    return `{\n${lines.join("\n")}\n${indent}}`;
  }

  function printType(type: ts.Type, seen: Set<ts.Type>): string {
    const flags = type.flags;
    if (flags & ts.TypeFlags.Any) return "any";
    if (flags & ts.TypeFlags.Unknown) return "unknown";
    if (flags & ts.TypeFlags.Never) return "never";
    if (flags & ts.TypeFlags.Void) return "void";
    if (flags & ts.TypeFlags.Undefined) return "undefined";
    if (flags & ts.TypeFlags.Null) return "null";
    if (flags & ts.TypeFlags.String) return "string";
    if (flags & ts.TypeFlags.Number) return "number";
    if (flags & ts.TypeFlags.Boolean) return "boolean";
    if (flags & ts.TypeFlags.BigInt) return "bigint";
    if (flags & ts.TypeFlags.BooleanLiteral) return checker.typeToString(type);
    if (type.isStringLiteral()) return JSON.stringify(type.value);
    if (type.isNumberLiteral()) return String(type.value);
    if (flags & ts.TypeFlags.TemplateLiteral) return checker.typeToString(type);
    if (type.isUnion()) {
      const parts = [...new Set(type.types.map((member) => printType(member, seen)))];
      // The checker splits boolean into its two literals; print it back as boolean.
      const merged = parts.includes("true") && parts.includes("false") ? [...parts.filter((p) => p !== "true" && p !== "false"), "boolean"] : parts;
      return merged.map((part) => (part.includes("=>") ? `(${part})` : part)).join(" | ");
    }
    if (type.isIntersection()) return type.types.map((member) => `(${printType(member, seen)})`).join(" & ");
    if (!(flags & ts.TypeFlags.Object)) throw new Error(`cannot print type ${checker.typeToString(type)}`);
    if (seen.has(type)) throw new Error(`recursive type ${checker.typeToString(type)} is not supported`);
    const inner = new Set(seen).add(type);
    if (checker.isTupleType(type)) {
      return `[${checker
        .getTypeArguments(type as ts.TypeReference)
        .map((member) => printType(member, inner))
        .join(", ")}]`;
    }
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type as ts.TypeReference);
      const readonly = type.symbol?.name === "ReadonlyArray" ? "Readonly" : "";
      return `${readonly}Array<${printType(element!, inner)}>`;
    }
    // Types of the standard library (Date, Map, URL...) are the same everywhere: print them by name.
    const declaration = type.symbol?.declarations?.[0];
    if (declaration && program.isSourceFileDefaultLibrary(declaration.getSourceFile())) {
      return checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
    }
    if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0) {
      throw new Error(`function type ${checker.typeToString(type)} cannot cross the wire`);
    }
    const members: string[] = [];
    for (const info of checker.getIndexInfosOfType(type)) {
      members.push(`[key: ${printType(info.keyType, inner)}]: ${printType(info.type, inner)};`);
    }
    for (const symbol of checker.getPropertiesOfType(type)) {
      const optional = symbol.flags & ts.SymbolFlags.Optional ? "?" : "";
      members.push(`${key(symbol.name)}${optional}: ${printType(checker.getTypeOfSymbol(symbol), inner)};`);
    }
    return members.length === 0 ? "{}" : `{ ${members.join(" ")} }`;
  }

  return [
    "// Generated from the service's routers (packages/api) by packages/sdk/scripts/router-types.ts: do not edit.",
    'import type { TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";',
    "",
    "/** Every error code the service answers with, in the body's `code` field. */",
    `export type DomainErrorCode = ${printType(errorCodes, new Set())};`,
    "",
    "/** The shape of a failed call's error, as the service formats it. */",
    `export type DirectoryErrorShape = ${printType(errorShape, new Set())};`,
    "",
    "/** The directory's tRPC router: procedures with their inputs and outputs (types only). */",
    "export type AppRouter = TRPCBuiltRouter<",
    "  { ctx: object; meta: object; errorShape: DirectoryErrorShape; transformer: true },",
    `  ${printRecord(record, "  ")}`,
    ">;",
    "",
  ].join("\n");
}

function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}
