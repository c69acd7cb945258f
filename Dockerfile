# sparts-server in a container: built on Debian bookworm with the same packages
# scripts/install-deps.sh installs (a test checks that the two lists agree),
# run on bookworm-slim with only the shared libraries the binaries link.
#
#   docker build -t sparts .
#   docker run -p 8080:8080 -v sparts-data:/var/lib/sparts sparts
#
# Configuration is by environment (SPARTS_PORT, SPARTS_TURN_SECONDS, ...:
# `docker run sparts --help` lists every setting).

# --- build -----------------------------------------------------------------------
FROM debian:bookworm AS build
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      g++ cmake ninja-build pkg-config \
      libboost1.81-dev nlohmann-json3-dev libspdlog-dev libsqlitecpp-dev doctest-dev \
      libcli11-dev libssl-dev libjemalloc-dev libpq-dev libjwt-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# Warnings are errors in the tests' builds (scripts/test.sh, CI), not in the image's: a
# compiler's new warning must not stop an image from building.
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPARTS_BUILD_TESTS=OFF -DSPARTS_BUILD_BENCH=OFF -DSPARTS_WERROR=OFF \
 && cmake --build build --target sparts_server_main sparts_cli

# --- run -------------------------------------------------------------------------
FROM debian:bookworm-slim
# The runtime libraries of the packages above: spdlog and fmt, SQLite, OpenSSL's
# libcrypto, PostgreSQL's libpq (CLI11 is headers only).
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      libstdc++6 libspdlog1.10 libfmt9 libsqlite3-0 libssl3 libjemalloc2 libpq5 libjwt0 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 sparts \
 && useradd --system --uid 10001 --gid 10001 --create-home --home-dir /var/lib/sparts --shell /usr/sbin/nologin sparts
COPY --from=build /src/build/server/sparts-server /usr/local/bin/sparts-server
COPY --from=build /src/build/tools/sparts /usr/local/bin/sparts
# By number: Kubernetes' runAsNonRoot can check a numeric user, not a name.
USER 10001:10001
WORKDIR /var/lib/sparts
# The database lives on a volume: games survive the container.
VOLUME ["/var/lib/sparts"]
ENV SPARTS_ADDRESS=0.0.0.0 \
    SPARTS_PORT=8080 \
    SPARTS_DATABASE=/var/lib/sparts/sparts.db
EXPOSE 8080
# bash's /dev/tcp: no curl needed in the image.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${SPARTS_PORT} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q ' 200 ' <&3"]
# SIGTERM (docker stop) shuts the server down cleanly; tables come back on the next start.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/sparts-server"]
