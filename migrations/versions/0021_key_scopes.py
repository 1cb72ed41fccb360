"""A key's scope: `read`, `write` or `admin` of its namespace (app.core.scopes).

Keys made before scopes keep what they could do: admin of their namespace. Admin keys of the server (no
namespace) carry `admin` too; their power comes from having no namespace.

Revision ID: 0021
Revises: 0020
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("api_keys", sa.Column("scope", sa.String(8), nullable=False, server_default="admin"))
    op.create_check_constraint("ck_api_keys_scope", "api_keys", "scope IN ('read', 'write', 'admin')")


def downgrade() -> None:
    op.drop_constraint("ck_api_keys_scope", "api_keys", type_="check")
    op.drop_column("api_keys", "scope")
