# Tessera's image. The build stage installs everything from the lock file and compiles; the
# runtime stage gets the compiled service with production dependencies only and runs it as
# the unprivileged `node` user, under tini as PID 1 (it forwards SIGTERM to Node, whose
# handler finishes in-flight requests and exits 0, and reaps zombies).
#
#   docker build -t tessera .
#   docker run -p 127.0.0.1:8080:8080 -e DATABASE_URL=mysql://user:pw@db:3306/tessera tessera
#
# Built from a checkout that serves the demo, it refuses to start while the demo's users have the
# README's passwords (HOST is 0.0.0.0 here): add -e DEMO_USERS_ALLOW_PUBLIC=1 while the port is
# published on loopback only, change their passwords, then drop it.
#
# test/image.e2e-spec.ts runs this file's CMD and HEALTHCHECK as plain processes.

ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /app
# The full image has python3, make and g++, should a native module (bcrypt, better-sqlite3)
# have no prebuilt binary for this Node.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY scripts/build.mjs ./scripts/
COPY providers ./providers
COPY src ./src
COPY console ./console
RUN npm run build \
    && npm prune --omit=dev --no-audit --no-fund \
    && rm -f dist/.tsbuildinfo

# Same Debian release as the build stage, so the native modules built there load here.
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini=0.19.* \
    && rm -rf /var/lib/apt/lists/*
# Bound to every interface inside the container (Tessera's own default, loopback, is out of a
# published port's reach), so links are built only for the Host names ALLOWED_HOSTS lists (or
# PUBLIC_URL): `docker run -p 127.0.0.1:8080:8080` reached as localhost works as it is; set
# PUBLIC_URL or ALLOWED_HOSTS to the name clients use.
# MALLOC_ARENA_MAX: as `npm start` sets it (see the README's Benchmarks).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=8080 \
    ALLOWED_HOSTS=localhost,127.0.0.1
WORKDIR /app
# Owned by root, so the service cannot change its own code; only data/ (the default SQLite
# database's folder) is the service user's.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY providers ./providers
COPY scripts/healthcheck.mjs ./scripts/
RUN mkdir data && chown node:node data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
# Longer than SHUTDOWN_GRACE_MS (10 s by default): `docker stop -t 15`, or stop_grace_period in compose.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=8", "--no-allocation-site-pretenuring", "--heap-growing-percent=20", "dist/src/main.js"]
