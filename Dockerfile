# ptxmc in a container: builds ptxmc and its Debian package on Debian 12, checks the whole litmus
# corpus against its expectations as the build's check, then installs the package (apt resolves
# its declared Depends) into a slim image whose entrypoint is ptxmc.
#   docker build -t ptxmc .
#   docker run --rm ptxmc check /usr/share/ptxmc/litmus/ptx/classic
#   docker run --rm -v "$PWD:/w" -w /w ptxmc check --fail-on-flag any my-tests/
FROM debian:12 AS build
WORKDIR /src
# The dependency list first, so that editing sources reuses the installed packages.
COPY scripts/install-deps.sh scripts/
RUN bash scripts/install-deps.sh --build-only && rm -rf /var/lib/apt/lists/*
COPY . .
RUN cmake --preset release -DPTXMC_BUILD_TESTS=OFF \
 && cmake --build build --target ptxmc
# The build's check: every corpus test must match its expected.txt (exit 0).
RUN build/ptxmc check --no-time --jobs "$(nproc)" litmus/ > /tmp/corpus.txt \
 || { grep -E '^Test |MISMATCH|^Observation .* Unknown' /tmp/corpus.txt \
        | grep -B1 -E 'MISMATCH|Unknown'; exit 1; }
RUN cpack --config build/CPackConfig.cmake -B /pkg

# debian:12-slim leaves out /usr/share/doc and /usr/share/man (its dpkg excludes): the image has
# the binary, the models and the corpus; the man page and docs are in the package itself.
FROM debian:12-slim
COPY --from=build /pkg/ptxmc_*.deb /tmp/
RUN apt-get update \
 && apt-get install -y --no-install-recommends /tmp/ptxmc_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/ptxmc_*.deb \
 && ptxmc check --no-time /usr/share/ptxmc/litmus/ptx/classic/SB+relaxed.gpu.litmus
ENTRYPOINT ["ptxmc"]
CMD ["--help"]
