"""Per-namespace quotas: limits, usage, and where writes are held to them."""
