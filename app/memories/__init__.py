"""Memories: remember, list, get, delete, deleteSession, and storing what extraction produces."""
