"""agent-memory: a self-hosted memory service for AI agents (Agent Memory API + Session API over REST)."""

__version__ = "0.1.0"
