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
 && cmake --build build --target sparts_cli

# Runtime stage: only the binary and the C++ runtime it links.
FROM debian:bookworm-slim
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libstdc++6 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /var/lib/sparts sparts
COPY --from=build /src/build/tools/sparts /usr/local/bin/sparts
USER sparts
WORKDIR /var/lib/sparts
# Until the server lands the image carries the command-line program.
ENTRYPOINT ["/usr/local/bin/sparts"]
CMD ["--help"]
