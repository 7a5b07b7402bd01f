# carca-bot: the Discord bot, its games in one SQLite file on the /data volume.
#
#   docker build -t carca-bot .
#   docker run -d --name carca -e DISCORD_TOKEN=... -v carca-data:/data carca-bot
#   docker exec carca carca-bot backup /data/backup-$(date +%F).sqlite3
FROM python:3.11-slim

LABEL org.opencontainers.image.title="carca-bot" \
      org.opencontainers.image.description="Rules-exact asynchronous Carcassonne for Discord, one game per channel." \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="0.1.0"

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CARCA_DB=/data/carca.sqlite3

# Only what `pip install .` needs: the metadata (the readme is part of it) and the
# package; board art is drawn in code, so nothing else is needed at run time.
WORKDIR /src
COPY pyproject.toml README.md ./
COPY carca_bot ./carca_bot
RUN pip install --no-cache-dir . \
    && groupadd --system --gid 10001 carca \
    && useradd --system --uid 10001 --gid carca --home-dir /data --shell /usr/sbin/nologin carca \
    && mkdir /data \
    && chown 10001:10001 /data

# The database, its WAL files and the command-sync marker live here.
VOLUME ["/data"]
WORKDIR /data
USER 10001:10001

# SQLite's quick check of the database file, read-only: cheap enough to run every minute.
HEALTHCHECK --interval=60s --timeout=20s --start-period=30s --retries=3 \
    CMD ["carca-bot", "check", "--quick"]

ENTRYPOINT ["carca-bot"]
CMD ["run"]
