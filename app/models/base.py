"""Declarative base and column helpers shared by every model."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Computed, DateTime, MetaData, func, text
from sqlalchemy.dialects.postgresql import REGCONFIG, TSVECTOR
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


def created_at_column() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), nullable=False, server_default=func.now())


def updated_at_column() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), nullable=False, server_default=text("now()"))


def english_tsvector(column: str) -> str:
    """The SQL of `column`'s full-text vector: PostgreSQL's `english` parser and stemmer, as every query uses."""
    return f"to_tsvector('english'::regconfig, {column})"


def language_tsvector(column: str) -> str:
    """The SQL of `column`'s full-text vector in the row's own language (its `language` column), with its
    CJK bigrams and symbols (migration 0013 defines the functions and says why)."""
    return f"to_tsvector(language, {column})"


def language_column() -> Mapped[str]:
    """The full-text configuration of the row's language (`app.language.detect.search_config`)."""
    return mapped_column(REGCONFIG, nullable=False, server_default=text("'english'::regconfig"))


def tsvector_column(expression: str) -> Mapped[Any]:
    """A stored generated `tsvector` column computed by `expression` (GIN-indexed by the table)."""
    return mapped_column(TSVECTOR, Computed(expression, persisted=True))
