# The standalone server (apps/http) as an image: `docker build -t service-api .`, then
# `docker run -p 5001:5001 -v service-api-data:/data service-api` (README: "Running in a container").
# apps/http/test/container-recipe.test.ts keeps it to the repository (the Node major of .nvmrc, the
# start command of package.json's `serve`, COPY sources that exist), runs its deploy, start command and
# health check, and with REPLAY_BUILD_STAGE=1 replays the whole build without Docker.

# ---- build: the whole workspace with its dev dependencies, then a copy of the server with only
# its production dependencies.
FROM node:24-bookworm-slim AS build
ENV TURBO_TELEMETRY_DISABLED=1
WORKDIR /workspace

# pnpm as package.json's devEngines pins it, from the npm registry (as scripts/toolchain.sh brings it).
COPY package.json ./
RUN npm install --global --no-audit --no-fund --loglevel=error \
      "pnpm@$(node -p 'require("./package.json").devEngines.packageManager.version')"

# Packages from the lockfile alone: this layer is kept while package.json, pnpm-lock.yaml and
# pnpm-workspace.yaml stay as they are. No dependency runs a build script (allowBuilds there):
# better-sqlite3 ships its binaries for glibc and musl, x64 and arm64.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch

# Install, build the server and the packages it needs, then deploy it: a self-contained folder of its
# files ("files" of its package.json) and its production dependencies, the workspace packages copied
# in. Deployed where it runs in the final stage, so that no link in its node_modules points elsewhere.
COPY . .
RUN pnpm install --frozen-lockfile --offline \
 && pnpm exec turbo run build --filter=@service-api/http... --output-logs=errors-only \
 && pnpm --filter=@service-api/http --prod deploy /app/apps/http

# ---- runtime: Node and the deployed server, nothing else.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=5001 \
    DATABASE_URL=file:/data/service-api.sqlite
WORKDIR /app
COPY --from=build /app/apps/http ./apps/http

# The data folder is the server's user's; the server's own files stay root's, read-only to it.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 5001

# Liveness, as the README's probes: 200 whenever the process can answer, whatever the database does.
# Node itself asks (the slim image has no curl), on the PORT the server listens on.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 5001) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1))"]

# The node invocation of package.json's `serve`, flags included, from the same relative path. Node is
# PID 1: SIGTERM from `docker stop` reaches the server, which drains and exits 0 (give it
# SHUTDOWN_DRAIN_MS + SHUTDOWN_TIMEOUT_MS: `docker stop -t 30`).
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "apps/http/dist/main.js"]
