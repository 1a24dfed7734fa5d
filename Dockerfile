# The service image: the API and the worker (docker-compose.yml runs it as both). Learner code
# never runs here: the worker starts sibling sandbox containers (their own image,
# sandbox/inside/Dockerfile, found by its tag) through the engine's socket, mounted at
# /var/run/docker.sock, and talks to them over their attached stdin and stdout, so it needs no
# path shared with the engine's host.
#
# Either way the dependencies are requirements/runtime.lock's releases, each file checked against
# its sha256 (scripts/lock refreshes the lock), and the project is installed on top with --no-deps.
# Online (`docker compose up --build`, `scripts/build-service-image --online`): FROM
# python:3.11-slim, packages from the package index.
# Offline (`scripts/build-service-image --offline`): FROM metrics-judge-base:bookworm, the
# debootstrap base of the sandbox's offline build (Debian's Python 3.11, no pip), built with
# --network none from a wheelhouse of the lock's releases that the script puts in the context's
# wheels/ folder.
ARG BASE=python:3.11-slim

FROM ${BASE} AS install
# scripts/build-service-image tags this stage (its cache) and prunes the ones it replaced by this label.
LABEL metrics-judge.build-stage=install
# pyproject.toml always matches, so a context without wheels/ (online) is no error; a wheels/
# folder that matches has its contents copied.
COPY pyproject.toml wheel[s] /wheels/
COPY pyproject.toml /src/
COPY requirements/runtime.lock /src/requirements/
COPY judge /src/judge
COPY service /src/service
COPY sandbox /src/sandbox
COPY api /src/api
# A virtualenv, so Debian's own Python packages (PEP 668) are never touched; pip runs from its
# wheel where the base has none.
RUN set -eu; \
    if ls /wheels/pip-*.whl >/dev/null 2>&1; then \
        python3 -m venv --without-pip /opt/venv; \
        pip() { /opt/venv/bin/python "$(ls /wheels/pip-*.whl | head -n 1)/pip" "$@" \
            --no-cache-dir --disable-pip-version-check --no-index --find-links /wheels; }; \
    else \
        python3 -m venv /opt/venv; \
        pip() { /opt/venv/bin/pip "$@" --no-cache-dir --disable-pip-version-check; }; \
    fi; \
    pip install --require-hashes -r /src/requirements/runtime.lock; \
    pip install --no-deps /src

# The same base again, without the wheelhouse and the sources the install stage held.
FROM ${BASE}
ENV PATH=/opt/venv/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    JUDGE_DATA_DIR=/data JUDGE_PROBLEMS_DIR=/app/problems
COPY --from=install /opt/venv /opt/venv
COPY problems /app/problems
WORKDIR /app
RUN mkdir -p /data
EXPOSE 8000
# judge api: uvicorn with the HTTP framing rules of service/http_server.py
CMD ["judge", "api", "--host", "0.0.0.0", "--port", "8000"]
