"""The LLM domain: the OpenAI-compatible chat client (`client`) and answers written from memories (`answers`).

Everything here is optional: with no `AGENT_MEMORY_LLM_BASE_URL` the service runs fully offline, and each
user of an LLM (extraction, compaction, recall answers) has a deterministic path of its own.
"""

from app.llm.client import LlmClient, LlmError

__all__ = ["LlmClient", "LlmError"]
