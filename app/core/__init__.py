"""Shared, domain-free pieces: settings, database, errors, auth, pagination, logging, metrics."""
