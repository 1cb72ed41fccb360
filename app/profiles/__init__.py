"""Profiles: isolated memory stores inside a namespace."""
