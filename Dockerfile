# syntax=docker/dockerfile:1
# The directory service, built inside the image and run by node as PID 1 (it handles SIGTERM
# itself: in-flight requests finish, the database closes) as the unprivileged `node` user.
#
#   docker build -t business-directory .
#   docker run -p 3000:3000 -v directory-data:/data business-directory
#
# Embedded database and admin key in the /data volume by default; for PostgreSQL pass
# DATABASE_URL (every variable, with its default: .env.example, e.g. --env-file .env). A server
# started before its PostgreSQL waits for it up to DB_STARTUP_TIMEOUT_MS. The same image runs every app:
#
#   the webhook worker alone:  docker run ... business-directory node apps/server/dist/worker-main.js
#   the admin CLI:             docker exec -it <container> node apps/admin/bin/directory-admin.mjs --help
#   the stdio MCP server:      docker run -i --rm -e DIRECTORY_URL=https://... business-directory node apps/mcp/bin/directory-mcp.mjs

# An active LTS line (Node 20 has reached its end of life); deployment.test.ts runs the bundles on it.
ARG NODE_IMAGE=node:24-bookworm-slim

# pnpm and every package the lockfile names, downloaded once: reused until the lockfile changes.
FROM ${NODE_IMAGE} AS pnpm
RUN npm install -g pnpm@10.34.8
WORKDIR /app
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
COPY patches ./patches
RUN pnpm fetch

# Every app's bundles (apps/*/dist), built with the development tools.
FROM pnpm AS build
COPY . .
RUN pnpm install --offline --frozen-lockfile && pnpm build

# What the bundles load at run time: production dependencies only (no esbuild, tsx, vitest), plus
# the sources the server reads as files (packages/db's migrations and its cities datasets). The
# apps' own sources and every test go: the bundles stand in for them, and their bins run the
# bundles as they are when the sources are absent (scripts/bundle-app.mjs).
FROM pnpm AS production-dependencies
COPY . .
RUN pnpm install --offline --frozen-lockfile --prod
RUN rm -rf apps/*/src && find . -path ./node_modules -prune -o -name "*.test.ts" -type f -exec rm {} +

FROM ${NODE_IMAGE}
ENV NODE_ENV=production DATA_DIR=/data HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=production-dependencies /app ./
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/admin/dist ./apps/admin/dist
COPY --from=build /app/apps/mcp/dist ./apps/mcp/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/server/dist/main.js"]
