"""Session API: conversation sessions, branching message trees, history, search, compaction, fork and split."""
