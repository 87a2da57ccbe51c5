# syntax=docker/dockerfile:1
# The game server's image. Build: docker build -t foodgames .  Run: see docker-compose.yml.
# Two stages: the first installs the locked runtime set with Web Push (requirements/push.txt, hash-checked) into a venv and
# builds and installs the project's wheel into it; the second is the slim base with only that venv, run as a user
# without privileges. Dependencies are installed before the code is copied, so a code change rebuilds only the
# wheel's layers.
#
# Python 3.13 runs the server's per-move path 10-15 % faster than 3.11 (bench/hotpath.py, docs/performance.md); the
# code supports 3.11 and newer, and CI tests both. The official image's CPython is built with profile-guided and
# link-time optimisation, which alone ran the server 10-20 % faster than a build without.
#
# The base image is pinned by digest (the tag says which release it is; the digest fixes the bytes, so a rebuild
# gets the image that was tested). Both stages must name the same one (the venv links to its interpreter). To move
# to a newer patch release, look the tag's digest up and replace both lines:
#   docker buildx imagetools inspect python:3.13-slim --format '{{json .Manifest.Digest}}'
# tests/deploy/test_container.py refuses a FROM without a digest.

FROM python:3.13-slim@sha256:6771159cd4fa5d9bba1258caf0b82e6b73458c694d178ad97c5e925c2d0e1a91 AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /src
COPY requirements/push.txt requirements/push.txt
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --require-hashes --no-deps -r requirements/push.txt
COPY pyproject.toml README.md alembic.ini ./
COPY migrations ./migrations
COPY frontend ./frontend
COPY app ./app
RUN /opt/venv/bin/pip wheel --no-deps --wheel-dir /src/dist . \
    && /opt/venv/bin/pip install --no-deps /src/dist/foodgames-*.whl

FROM python:3.13-slim@sha256:6771159cd4fa5d9bba1258caf0b82e6b73458c694d178ad97c5e925c2d0e1a91 AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/opt/venv/bin:$PATH HOST=0.0.0.0 PORT=8000
# ./data holds the generated SECRET_KEY when none is given (and the SQLite file without DATABASE_URL).
RUN useradd --create-home --uid 1000 games && mkdir -p /srv/data && chown 1000 /srv/data
COPY --from=build /opt/venv /opt/venv
WORKDIR /srv
USER 1000
EXPOSE 8000
# Ready: the database answers and the broker links this process to the others (liveness alone is /api/health/live).
# `foodgames health` asks the port the server was configured with (PORT), whatever it is.
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=5 CMD ["foodgames", "health"]
# Migrations run in the app's startup (guarded by an advisory lock on Postgres).
CMD ["foodgames", "serve"]
