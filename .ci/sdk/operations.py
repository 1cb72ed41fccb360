"""Fails when the generated Python client lacks an operation of the OpenAPI document: openapi-python-client
only warns when it cannot read an endpoint (a request body of a media type it does not know) and leaves
the endpoint out, so a missing operation would otherwise pass unnoticed.

Usage: operations.py OPENAPI_JSON GENERATED_PACKAGE_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(document_path: str, package: str) -> None:
    document = json.loads(Path(document_path).read_text())
    generated = {module.stem for module in (Path(package) / "api").rglob("*.py")}
    declared = {
        operation["operationId"]
        for methods in document["paths"].values()
        for operation in methods.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    missing = sorted(declared - generated)
    if missing:
        raise SystemExit(f"the generated client lacks {len(missing)} operation(s): {', '.join(missing)}")
    print(f"sdk: all {len(declared)} operations generated", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:3])
