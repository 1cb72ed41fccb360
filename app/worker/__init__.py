"""The background worker: the job queue (outbox), the claim/lease loop, and the job handlers."""
