# Build stage: the same Debian bookworm packages scripts/install-deps.sh installs.
FROM debian:bookworm AS build
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      g++ cmake ninja-build pkg-config \
      libboost1.81-dev nlohmann-json3-dev libspdlog-dev libsqlitecpp-dev doctest-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPARTS_BUILD_TESTS=OFF -DSPARTS_BUILD_BENCH=OFF \
 && cmake --build build --target sparts_server_main sparts_cli

# Runtime stage: the binaries and the shared libraries they link (spdlog, fmt).
FROM debian:bookworm-slim
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libstdc++6 libspdlog1.10 libfmt9 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /var/lib/sparts sparts
COPY --from=build /src/build/server/sparts-server /usr/local/bin/sparts-server
COPY --from=build /src/build/tools/sparts /usr/local/bin/sparts
USER sparts
WORKDIR /var/lib/sparts
EXPOSE 8080
# Inside a container the server must listen beyond loopback.
ENV SPARTS_ADDRESS=0.0.0.0
ENTRYPOINT ["/usr/local/bin/sparts-server"]
