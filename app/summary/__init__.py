"""The profile summary (getSummary): a token-budgeted Markdown digest of a profile's active memories."""
