"""Events: every change to memory as a row of one outbox, numbered per namespace in commit order."""
