# syntax=docker/dockerfile:1
# Build: dependencies first in their own layer, so code changes rebuild only the crate.
FROM rust:1.95-slim-bookworm AS build
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY .cargo ./.cargo
RUN mkdir -p src benches \
    && echo 'fn main() {}' > src/main.rs \
    && touch src/lib.rs \
    && for b in $(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | tail -n +2); do echo 'fn main() {}' > "benches/$b.rs"; done \
    && cargo build --release --locked \
    && rm -rf src benches
COPY src ./src
COPY benches ./benches
COPY openapi.yaml ./
RUN touch src/main.rs src/lib.rs && cargo build --release --locked

# Run: a minimal image, as an unprivileged user.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl=7.88.* \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --no-create-home gameai
COPY --from=build /src/target/release/gameai /usr/local/bin/gameai
USER 10001
ENV GAMEAI_ADDR=0.0.0.0:8080 GAMEAI_LOG=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=2s --retries=3 CMD ["curl", "-fsS", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/usr/local/bin/gameai"]
