# The app as a container image, built from the same wheel as `pip install .`.
#   docker build -t scorekeeper .                       (BASE: the official Python image)
#   docker run -p 8000:8000 -v scorekeeper-data:/data scorekeeper
# BASE may be any Debian-like image with python3 and its venv module (see docs/hosting.md,
# podman route). Settings come from the environment (docs/hosting.md, "Configuration").
ARG BASE=python:3.11-slim

FROM ${BASE} AS build
# only behind a proxy that re-signs https: its certificate bundle, for pip (see docs/hosting.md)
ARG PIP_CERT
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY scorekeeper ./scorekeeper
RUN python3 -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check --upgrade pip \
    && /opt/venv/bin/pip wheel --no-cache-dir --no-deps --wheel-dir /dist . \
    && WHEEL="$(ls /dist/scorekeeper-*.whl)" \
    && /opt/venv/bin/pip install --no-cache-dir "${WHEEL}[postgres]" \
    && find /opt/venv -name __pycache__ -prune -exec rm -rf {} +

FROM ${BASE}
COPY --from=build /opt/venv /opt/venv
RUN mkdir -p /data && chown 10001:10001 /data
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOME=/tmp \
    SCOREKEEPER_DATA=/data \
    SCOREKEEPER_HOST=0.0.0.0 \
    PORT=8000 \
    SCOREKEEPER_WORKERS=2
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/opt/venv/bin/python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]
CMD ["scorekeeper", "serve"]
