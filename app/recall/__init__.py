"""Recall: find the memories that answer a question (fused full-text channels) and synthesise an answer."""
