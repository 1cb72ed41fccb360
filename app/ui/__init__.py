"""The memory inspector at `/ui`: plain HTML, CSS and JavaScript shipped in this package (no build step, no
CDN), talking to the REST API with the key its user typed."""
