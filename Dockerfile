# catalogcheck in a container: `docker build -t catalogcheck .`, then in your repository
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" catalogcheck check --config products.yml \
#     --store store/appstore.storekit --report report.html
# --user: the runtime image's own user is distroless's nonroot (uid 65532), which cannot write reports into a
# folder you own; run as yourself and it can.
# Two stages: the build stage makes the release binary with scripts/release (Swift's standard library, libxml2 and
# libyaml linked in statically); the runtime stage holds that binary and nothing else but the C and C++ runtime
# libraries it needs (distroless "cc": glibc, libgcc, libstdc++; no shell, no package manager).
# The release workflow (.github/workflows/release.yml) builds it on every tag; .ci/run lints it with hadolint.

# Debian 12 to build, as the runtime below is Debian 12: a binary built on a newer glibc would not start there
# (the same floor as the release archives: scripts/check-glibc-floor).
FROM swift:6.3.1-bookworm AS build
# The system packages of Package.swift's system libraries, and the static archives libxml2 needs (ICU, zlib, lzma).
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libxml2-dev libyaml-dev pkg-config libicu-dev zlib1g-dev liblzma-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The commit --version prints (the release workflow passes github.sha); the build context has no .git.
ARG CATALOGCHECK_COMMIT=unknown
RUN CATALOGCHECK_COMMIT="$CATALOGCHECK_COMMIT" scripts/release --out /dist \
    && tar -xzf /dist/catalogcheck-*.tar.gz -C /dist \
    && cp /dist/catalogcheck-*/catalogcheck /catalogcheck \
    && scripts/check-glibc-floor /catalogcheck

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /catalogcheck /usr/local/bin/catalogcheck
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/catalogcheck"]
