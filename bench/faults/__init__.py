"""The fault suite: crash and restart the pieces of a running service and count what clients saw."""
