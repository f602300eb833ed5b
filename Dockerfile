# One image for the api (which serves the built web app) and the worker; the command
# differs. Three targets:
#   build    every dependency, the Prisma client and the web build
#   migrate  the one-shot migration step (needs Prisma's WebAssembly schema engine, a dev dependency)
#   runtime  production dependencies only, non-root, with a HEALTHCHECK (the default target)
# npm test replays the COPY and RUN steps of this file in a scratch folder
# (scripts/docker/replay.test.ts), so a drift between it and the repository fails the suite.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY core/package.json core/
COPY api/package.json api/
COPY worker/package.json worker/
COPY web/package.json web/
COPY scripts/fix-lockfile.mjs scripts/prisma-generate.mjs scripts/
COPY prisma prisma
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --config web/vite.config.ts --logLevel warn

FROM build AS migrate
ENV NODE_ENV=production
USER node
CMD ["node", "--import", "tsx", "scripts/db/migrate.ts"]

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=5000
COPY package.json package-lock.json ./
COPY core/package.json core/
COPY api/package.json api/
COPY worker/package.json worker/
COPY web/package.json web/
COPY scripts/fix-lockfile.mjs scripts/prisma-generate.mjs scripts/healthcheck.mjs scripts/
RUN npm ci --omit=dev --no-audit --no-fund --workspace=@shop/api --workspace=@shop/worker --include-workspace-root
COPY --from=build /app/core/src core/src
COPY --from=build /app/api/src api/src
COPY --from=build /app/worker/src worker/src
COPY --from=build /app/web/dist web/dist
RUN mkdir -p uploads && chown node:node uploads
USER node
EXPOSE 5000
# The api answers /api/health; the worker (SHOP_ROLE=worker) writes a heartbeat file.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
CMD ["node", "--import", "tsx", "api/src/server.ts"]
