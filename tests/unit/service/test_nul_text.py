"""No text holding a NUL reaches the database, whichever way SQLAlchemy sends it: one row's
named or positional binds, a batch of rows, or the flat list of one multi-row INSERT."""

from __future__ import annotations

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, event, insert, select

from judge.errors import InvalidInput
from service.db.session import refuse_nul

metadata = MetaData()
notes = Table("notes", metadata, Column("id", Integer, primary_key=True), Column("label", String(50)))


@pytest.fixture()
def engine():  # type: ignore[no-untyped-def]
    made = create_engine("sqlite://")
    event.listen(made, "before_cursor_execute", refuse_nul)
    metadata.create_all(made)
    yield made
    made.dispose()


def test_clean_text_in_every_form_is_stored(engine) -> None:  # type: ignore[no-untyped-def]
    with engine.begin() as connection:
        connection.execute(insert(notes).values(label="one"))
        connection.execute(insert(notes), [{"label": "two"}, {"label": "three"}])
        connection.execute(notes.insert().values([{"label": "four"}, {"label": "five"}]))
        assert len(connection.execute(select(notes)).all()) == 5


@pytest.mark.parametrize("form", ["one row", "a batch", "one multi-row insert", "a query"])
def test_a_nul_in_any_form_is_refused_by_its_name(engine, form: str) -> None:  # type: ignore[no-untyped-def]
    with engine.begin() as connection, pytest.raises(InvalidInput) as refused:
        if form == "one row":
            connection.execute(insert(notes).values(label="a\x00b"))
        elif form == "a batch":
            connection.execute(insert(notes), [{"label": "fine"}, {"label": "a\x00b"}])
        elif form == "one multi-row insert":
            connection.execute(notes.insert().values([{"label": "fine"}, {"label": "a\x00b"}]))
        else:
            connection.execute(select(notes).where(notes.c.label == "a\x00b"))
    assert refused.value.message == "label: must not contain a NUL character (U+0000)"
