"""Declarative base and column helpers shared by every model."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Computed, DateTime, MetaData, func, text
from sqlalchemy.dialects.postgresql import TSVECTOR
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


def tsvector_column(expression: str) -> Mapped[Any]:
    """A stored generated `tsvector` column computed by `expression` (GIN-indexed by the table)."""
    return mapped_column(TSVECTOR, Computed(expression, persisted=True))
