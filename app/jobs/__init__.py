"""A profile's background jobs as the API shows them: status, the list, and retrying a failed one."""
