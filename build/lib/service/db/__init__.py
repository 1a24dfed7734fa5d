"""Persistence: SQLAlchemy 2.0 models, sessions and Alembic migrations."""
