# One image for api and worker (the command differs); the api serves the built web app.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY core/package.json core/
COPY api/package.json api/
COPY worker/package.json worker/
COPY web/package.json web/
COPY scripts/prisma-generate.mjs scripts/
COPY prisma prisma
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --config web/vite.config.ts

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=5000
COPY --from=build /app /app
EXPOSE 5000
CMD ["node", "--import", "tsx", "api/src/server.ts"]
