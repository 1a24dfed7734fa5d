# The service image: API and worker. The sandbox image that runs learner code is separate
# (sandbox/Dockerfile); the worker builds it through the Docker socket on start.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 JUDGE_DATA_DIR=/data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY judge ./judge
COPY sandbox ./sandbox
COPY api ./api
COPY problems ./problems
RUN pip install --no-cache-dir . && mkdir -p /data
ENV JUDGE_PROBLEMS_DIR=/app/problems
EXPOSE 8000
CMD ["uvicorn", "api.main:app", "--host", "0.0.0.0", "--port", "8000"]
