# syntax=docker/dockerfile:1
# Multi-stage image for the API (npm start with DATABASE_URL) and the worker (npm run worker).
# NODE_ENV=production: start-up refuses the demo defaults, so the environment must give
# JWT_SECRET, PAYMENT_PROVIDER (kkiapay or fedapay) with its keys, SUPPLY_BANK_NAME and
# SUPPLY_BANK_ACCOUNT (see docker-compose.yml). First super admin: npm run admin:create.

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY platform/package.json platform/
COPY event-store/package.json event-store/
COPY projections/package.json projections/
COPY services/api/package.json services/api/
COPY services/worker/package.json services/worker/
COPY web/package.json web/
COPY scripts/package.json scripts/
RUN npm ci

FROM deps AS build
COPY . .
RUN npm run build -w web

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app /app
RUN npm prune --omit=dev --workspaces --include-workspace-root=false || true
# npm start keeps its server build (scripts/run.mjs) and its web build's lock in node_modules/.cache.
RUN mkdir -p node_modules/.cache/filiere-server && chown -R node node_modules/.cache
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["npm", "start"]
