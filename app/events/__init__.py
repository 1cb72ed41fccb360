"""Events: every change to memory as a row of one outbox, numbered per namespace once committed (by its
readers, migration 0024)."""
