"""Webhooks by the Standard Webhooks specification: a namespace's endpoints, their signed, ordered, retried
deliveries of its events (made by the worker's dispatcher), and the guard that keeps them off private addresses."""
