"""A failed statement's error, as the logs print it, holds the statement but never its parameters."""

from __future__ import annotations

import logging
import traceback

import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError


async def test_a_failed_statement_logs_no_parameter_values(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    # Regression: ERROR logs of database failures included the SQL parameters (metadata values and all).
    secret = "metadata-value-f00dfeed"
    with pytest.raises(DBAPIError) as failed:
        async with app.state.engine.connect() as conn:
            await conn.execute(text("INSERT INTO no_such_table (v) VALUES (:v)"), {"v": secret})
    logging.getLogger("agent_memory.errors").error("database error", exc_info=failed.value)
    logged = caplog.text + "".join(traceback.format_exception(failed.value))
    assert "no_such_table" in logged, "the statement is still named"
    assert secret not in logged
