"""Ingest: store a conversation's messages verbatim and queue their extraction, in one transaction."""
