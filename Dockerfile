# syntax=docker/dockerfile:1
# Build: the crate with its dependencies kept in cache mounts, so a rebuild
# compiles only what changed, whatever the manifest lists. The binary is
# portable x86-64 (or arm64): the engines pick their AVX2/BMI2 kernels at run
# time on CPUs that have them.
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin gameai \
    && cp target/release/gameai /usr/local/bin/gameai

# Run: a minimal image, as an unprivileged user, with nothing installed
# beside the binary (it checks its own health).
FROM debian:bookworm-slim
RUN useradd --no-log-init --uid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin gameai
COPY --from=build /usr/local/bin/gameai /usr/local/bin/gameai
USER 10001
ENV GAMEAI_ADDR=0.0.0.0:8080 GAMEAI_LOG=json
EXPOSE 8080
# The whole stop (GAMEAI_SHUTDOWN_GRACE_MS, 7 s by default) ends inside
# Docker's default 10 s stop timeout.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["/usr/local/bin/gameai", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/gameai"]
