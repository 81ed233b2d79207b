# The app as a container image, built from the same wheel as `pip install .`, its packages
# at constraints.txt's exact versions (scripts/lock), without pip in the image.
#   docker build -t scorekeeper .                       (BASE: the official Python image)
#   docker run -p 8000:8000 -v scorekeeper-data:/data scorekeeper
# BASE may be any Debian-like image with python3 and its venv module (see docs/hosting.md,
# podman route). Settings come from the environment (docs/hosting.md, "Configuration").
ARG BASE=python:3.11.14-slim-bookworm

FROM ${BASE} AS build
# only behind a proxy that re-signs https: its certificate bundle, for pip (see docs/hosting.md)
ARG PIP_CERT
WORKDIR /src
COPY pyproject.toml constraints.txt README.md LICENSE ./
COPY scorekeeper ./scorekeeper
# pip lives in a venv of this stage only (/opt/pip: the base's own pip, >= 22.3 for
# --python); the app's venv is made without pip and filled from outside by it
RUN python3 -m venv /opt/pip \
    && /opt/pip/bin/pip wheel --no-cache-dir --disable-pip-version-check --no-deps \
        --wheel-dir /dist . \
    && python3 -m venv --without-pip /opt/venv \
    && WHEEL="$(ls /dist/scorekeeper-*.whl)" \
    && /opt/pip/bin/pip --python /opt/venv/bin/python install --no-cache-dir \
        --disable-pip-version-check -c constraints.txt "${WHEEL}[postgres,redis]" \
    && find /opt/venv -name __pycache__ -prune -exec rm -rf {} +

FROM ${BASE}
# no pip, setuptools nor wheel at run time: the base's own removed (python:3.11-slim keeps
# them in /usr/local, Debian's python3-venv its wheels for ensurepip)
RUN rm -rf /usr/local/bin/pip* /usr/local/lib/python3*/site-packages/pip \
        /usr/local/lib/python3*/site-packages/pip-* \
        /usr/local/lib/python3*/site-packages/setuptools* \
        /usr/local/lib/python3*/site-packages/_distutils_hack \
        /usr/local/lib/python3*/site-packages/distutils-precedence.pth \
        /usr/local/lib/python3*/site-packages/wheel* \
        /usr/local/lib/python3*/ensurepip/_bundled /usr/share/python-wheels \
    && mkdir -p /data && chown 10001:10001 /data
COPY --from=build /opt/venv /opt/venv
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
