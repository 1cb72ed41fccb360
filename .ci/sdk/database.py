"""A throw-away database on AGENT_MEMORY_TEST_DATABASE_URL's server for .ci/sdk_check.sh's live server:
`create` prints its URL, `drop URL` removes it."""

import asyncio
import os
import secrets
import sys
from urllib.parse import urlsplit, urlunsplit

import asyncpg

SERVER = os.environ.get("AGENT_MEMORY_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")


async def main(action: str, url: str | None) -> None:
    admin = await asyncpg.connect(SERVER)
    try:
        if action == "create":
            name = f"sdk_check_{os.getpid()}_{secrets.token_hex(3)}"
            await admin.execute(f'CREATE DATABASE "{name}"')
            print(urlunsplit(urlsplit(SERVER)._replace(path="/" + name)))
        else:
            assert url is not None
            name = urlsplit(url).path.lstrip("/")
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
