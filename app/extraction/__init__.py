"""Extraction: turning conversation messages into typed memories.

``Extractor`` is the protocol the worker uses; ``DefaultExtractor`` the
offline implementation; ``classify_statement``/``classify_one`` serve
``/remember``; dates are resolved by ``app.language.temporal``, which recall shares.
"""

from app.extraction.default import DefaultExtractor, classify_one, classify_statement, extract_memories
from app.extraction.types import ExtractedMemory, Extractor, InputMessage, MemoryType, content_hash
from app.language.temporal import resolve_event_time, resolve_time_window

__all__ = [
    "DefaultExtractor",
    "ExtractedMemory",
    "Extractor",
    "InputMessage",
    "MemoryType",
    "classify_one",
    "classify_statement",
    "content_hash",
    "extract_memories",
    "resolve_event_time",
    "resolve_time_window",
]
