# carca-bot: the Discord bot, its games in one SQLite file on the /data volume.
#
#   docker build -t carca-bot .
#   docker run -d --name carca --stop-timeout 30 --env-file carca.env -v carca-data:/data carca-bot
#   docker exec carca carca-bot backup /data/backup-$(date +%F).sqlite3
#
# carca.env holds DISCORD_TOKEN=... (the token never goes on a command line).
# --stop-timeout 30: on SIGTERM the bot lets commands in flight finish for up to 20 s,
# longer than docker stop's default 10 s before SIGKILL.

# An exact Python release, so a rebuild gets the same base. Pinning the digest as well
# (python:3.11.7-slim-bookworm@sha256:...) would be stricter, but a digest can only be
# looked up from the registry, which the machine that wrote this could not reach.

# Stage 1: the package as a wheel with its engine and the AI's evaluation compiled to
# C extensions by mypyc (setup.py, CARCA_COMPILE=1): the same source and the same
# results as the pure package, and about three times the strong AI's search in its 2 s
# a decision (BENCHMARKS.md). The full image of the same release has the C compiler
# the slim one lacks; only the wheel goes on. Only what the build needs: the metadata
# (the readme is part of it), setup.py, the pinned versions, the package and its art
# (tiles_art/ installs as carca_bot.tiles_art).
FROM python:3.11.7-bookworm AS compiled
WORKDIR /src
COPY pyproject.toml setup.py README.md constraints.txt ./
COPY carca_bot ./carca_bot
COPY tiles_art ./tiles_art
RUN pip install --no-cache-dir -c constraints.txt mypy==2.4.1 setuptools==84.0.0 wheel==0.46.3 \
    && CARCA_COMPILE=1 pip wheel --no-cache-dir --no-build-isolation --no-deps --wheel-dir /wheels .

# Stage 2: the image, on the slim base.
FROM python:3.11.7-slim-bookworm

LABEL org.opencontainers.image.title="carca-bot" \
      org.opencontainers.image.description="Rules-exact asynchronous Carcassonne for Discord, one game per channel." \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="0.1.0"

# CARCA_METRICS_PORT: the health check's port (and Prometheus' /metrics), on 127.0.0.1
# inside the container; set CARCA_METRICS_HOST=0.0.0.0 and publish it to scrape it.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CARCA_DB=/data/carca.sqlite3 \
    CARCA_METRICS_PORT=9300

# The compiled wheel, its dependencies at the pinned versions.
WORKDIR /src
COPY constraints.txt ./
COPY --from=compiled /wheels ./wheels
RUN pip install --no-cache-dir -c constraints.txt ./wheels/carca_bot-*.whl \
    && rm -r ./wheels \
    && groupadd --system --gid 10001 carca \
    && useradd --system --uid 10001 --gid carca --home-dir /data --shell /usr/sbin/nologin carca \
    && mkdir /data \
    && chown 10001:10001 /data

# The database, its WAL files and the command-sync marker live here.
VOLUME ["/data"]
WORKDIR /data
USER 10001:10001

# Unhealthy when the bot could not store a move (SQLite's quick check, then a test write
# that changes nothing: read-only, locked, disk full), or when the running process says
# so (its /healthz: the Discord connection, the event loop, the database, the picture
# workers; no answer at all is unhealthy too). Cheap enough for every minute.
HEALTHCHECK --interval=60s --timeout=20s --start-period=60s --retries=3 \
    CMD ["sh", "-c", "carca-bot check --quick && python -m carca_bot.observe.probe"]

# The signal the bot shuts down gracefully on (Docker's default, stated for clarity).
STOPSIGNAL SIGTERM
ENTRYPOINT ["carca-bot"]
CMD ["run"]
