"""The REST API (FastAPI): routes per resource under /api/v1, schemas, auth dependencies."""
