"""Benchmarks and the retrieval evaluation: scripts run by hand, never part of the test suite."""
