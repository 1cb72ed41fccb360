"""Namespaces (tenants) and their API keys."""
