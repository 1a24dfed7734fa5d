"""Alembic environment: the URL comes from the caller (service.db.migrate) or the settings."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from service.db.models import Base
from service.settings import get_settings

config = context.config
url = config.get_main_option("sqlalchemy.url") or get_settings().resolved_database_url()

connectable = config.attributes.get("connection")
if connectable is None:
    engine = engine_from_config({"sqlalchemy.url": url}, prefix="sqlalchemy.",
                                poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=Base.metadata,
                          render_as_batch=url.startswith("sqlite"))
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connectable, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
