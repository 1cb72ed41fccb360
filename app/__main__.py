"""`python -m app` runs the `agent-memory` command."""

from app.cli import main

main()
