"""agent-memory-client: `MemoryClient` and `AsyncMemoryClient` for the Agent Memory API.

    from agent_memory_client import MemoryClient

    memory = MemoryClient(namespace="demo")  # AGENT_MEMORY_URL / AGENT_MEMORY_API_KEY, else the local server
    memory.remember("alice", "I am allergic to peanuts.")
    print(memory.recall("alice", "What am I allergic to?").answer)

Models are in `agent_memory_client.models`, exceptions in `agent_memory_client.errors`; framework adapters in
`agent_memory_client.integrations` (each an optional extra: `pip install "agent-memory-client[langgraph]"`).
"""

__version__ = "0.1.0"

from agent_memory_client._async_client import AsyncMemoryClient  # noqa: E402
from agent_memory_client._config import CONSISTENCY_HEADER, RetryPolicy  # noqa: E402
from agent_memory_client._sync_client import MemoryClient  # noqa: E402
from agent_memory_client.errors import (  # noqa: E402
    AgentMemoryError,
    APIError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ConnectionFailed,
    NotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    ServerError,
    UnavailableError,
    ValidationError,
)

__all__ = [
    "CONSISTENCY_HEADER",
    "APIError",
    "AgentMemoryError",
    "AsyncMemoryClient",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "ConnectionFailed",
    "MemoryClient",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitedError",
    "RetryPolicy",
    "ServerError",
    "UnavailableError",
    "ValidationError",
    "__version__",
]
