import { readFileSync } from "node:fs";
import { ClientError, gql, GraphQLClient } from "graphql-request";
import { describe, expect, it } from "vitest";
import type { TGetAgentDiscoveryOutput } from "@directory/api/schemas";
import { getJson } from "../testing";
import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from "./graphql-js";
import { graphqlSchema, graphqlSdl } from "./schema";
import { freshAddress, post, server, useGraphqlServer } from "./graphql-fixtures";

/** The schema GraphQL publishes, how clients discover and reach it, and the error shapes they get. */

useGraphqlServer();

describe("schema, introspection and discovery", () => {
  it("keeps the committed schema.graphql in step with the code (pnpm --filter @directory/server graphql:schema)", async () => {
    const committed = readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8");
    expect(committed).toBe(graphqlSdl());
    const served = await fetch(`${server.url}/api/graphql/schema.graphql`);
    expect(await served.text()).toBe(committed);
  });

  it("answers introspection (the standard query a client sends), and it prints the committed schema", async () => {
    const { body } = await post<IntrospectionQuery>(getIntrospectionQuery(), undefined, freshAddress());
    expect(body.errors).toBeUndefined();
    expect(`${printSchema(buildClientSchema(body.data!))}\n`).toBe(graphqlSdl());
  });

  it("has no mutation and no subscription type, and no internal score anywhere", () => {
    expect(graphqlSchema.getMutationType()).toBeUndefined();
    expect(graphqlSchema.getSubscriptionType()).toBeUndefined();
    expect(graphqlSdl()).not.toMatch(/geoScore|visibilityScore/);
  });

  it("is named in the discovery manifest", async () => {
    const { body } = await getJson<TGetAgentDiscoveryOutput>(server.url, "/api/agent-discovery");
    expect(body.doors.graphql).toMatchObject({
      url: "http://directory.test/api/graphql",
      schema: "http://directory.test/api/graphql/schema.graphql",
      operations: "query",
    });
  });

  it("lets browsers on any origin query it (preflight for POST with Authorization)", async () => {
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "OPTIONS",
      headers: { origin: "https://agent.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("answers a malformed body with a GraphQL error shape", async () => {
    const response = await fetch(`${server.url}/api/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"query": ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: [{ message: "Request body is not valid JSON", extensions: { code: "INVALID_INPUT", status: 400 } }] });
    const noQuery = await post(undefined as unknown as string);
    expect(noQuery.body.errors![0].extensions).toEqual({ code: "INVALID_INPUT", status: 400 });
    const missingVariable = await post(`query($slug: String!) { entity(slug: $slug) { slug } }`, {}, freshAddress());
    expect(missingVariable.body.errors![0].extensions).toEqual({ code: "INVALID_INPUT", status: 400 });
    expect(missingVariable.body.errors![0].message).toMatch(/\$slug/);
  });

  it("is reported by graphql-request as a ClientError carrying the codes", async () => {
    const client = new GraphQLClient(`${server.url}/api/graphql`, { headers: freshAddress() });
    const error = await client
      .request(gql`
        {
          entity(slug: "no-such-business-anywhere") {
            slug
          }
        }
      `)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).response.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });
});
