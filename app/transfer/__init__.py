"""Export and import: a namespace or one profile as NDJSON, streamed both ways, imported all-or-nothing."""
