"""The one typed settings object, read from `AGENT_MEMORY_*` environment variables and validated at start."""

from __future__ import annotations

import ipaddress
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# A configured admin key's secret: at least this long, and at least this many bits counting each
# character as a draw from the characters the secret uses.
ADMIN_SECRET_MIN_CHARS = 24
ADMIN_SECRET_MIN_BITS = 96


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="AGENT_MEMORY_", extra="ignore")

    database_url: str | None = Field(
        default=None,
        description="PostgreSQL URL (postgresql://… or postgresql+asyncpg://…). Unset: the embedded server.",
    )
    data_dir: Path = Field(
        default=Path("./.agent-memory"), description="Where the embedded server keeps data."
    )
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=1, le=65535)
    admin_key: str | None = Field(default=None, description="Bootstrap admin key (amk_<id>_<secret>).")
    log_format: Literal["json", "console"] = "json"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    run_worker: bool = Field(default=True, description="`serve` starts a supervised worker process.")
    workers: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="API processes `serve` runs. Unset: one per core with an external database, one on the "
        "embedded server.",
    )
    db_transaction_pooler: bool = Field(
        default=False,
        description="The database URL is a pooler in transaction mode (PgBouncer before 1.21): no prepared "
        "statement is cached or reused across transactions. Needs AGENT_MEMORY_LISTEN_DATABASE_URL.",
    )
    listen_database_url: str | None = Field(
        default=None,
        description="A direct PostgreSQL URL (not through a pooler) for LISTEN: key revocations and job "
        "wake-ups. Unset: the database URL.",
    )
    read_database_urls: str = Field(
        default="",
        description="Comma-separated PostgreSQL URLs of streaming read replicas. Reads that may lag (recall, "
        "list, get, summary, session reads, export) go to one that has replayed the client's last write "
        "(its consistency token), else to the primary. Empty: every read goes to the primary.",
    )
    read_replica_max_lag_seconds: float = Field(
        default=5.0,
        gt=0,
        le=3600,
        description="A replica further behind the primary than this is skipped until it catches up.",
    )
    db_pool_size: int = Field(default=10, ge=1, le=200)
    db_max_overflow: int = Field(default=10, ge=0, le=200)
    db_pool_timeout_seconds: float = Field(
        default=3.0,
        gt=0,
        le=120,
        description="A request that gets no pooled connection within this time of arriving is answered 503 "
        "within it.",
    )
    db_connect_timeout_seconds: float = Field(
        default=5.0, gt=0, le=120, description="Longest wait for a new database connection to open."
    )
    worker_restart_max_seconds: float = Field(
        default=30.0, gt=0, le=3600, description="Longest backoff before `serve` restarts its dead worker."
    )
    worker_concurrency: int = Field(default=2, ge=1, le=64)
    worker_poll_seconds: float = Field(default=1.0, gt=0, le=60)
    job_lease_seconds: float = Field(default=30.0, ge=1, le=3600)
    job_max_attempts: int = Field(default=5, ge=1, le=100)
    job_backoff_seconds: float = Field(default=2.0, gt=0, le=3600)
    events_retention_days: float = Field(
        default=7.0,
        gt=0,
        le=3650,
        description="How long events (the feed, webhooks) are kept; the worker deletes older ones.",
    )
    events_max_wait_seconds: float = Field(
        default=30.0,
        ge=0,
        le=300,
        description="The longest `wait` a feed request may ask for (a long-poll holds no database connection).",
    )
    # Per-namespace quotas (app.quotas): the server's defaults, each overridable per namespace; 0 = no limit.
    quota_memories: int = Field(
        default=0, ge=0, description="Active memories a namespace may hold (0: no limit)."
    )
    quota_messages: int = Field(
        default=0, ge=0, description="Session messages a namespace may hold (0: no limit)."
    )
    quota_bytes: int = Field(
        default=0,
        ge=0,
        description="Bytes a namespace's memories and messages may take as stored (0: no limit).",
    )
    quota_requests_per_minute: int = Field(
        default=0,
        ge=0,
        description="Requests a namespace's keys may make in one minute (0: no limit).",
    )
    llm_base_url: str | None = Field(
        default=None,
        description="OpenAI-compatible endpoint (…/v1) for extraction, compaction and answers. Unset: no LLM.",
    )
    llm_api_key: str | None = Field(
        default=None, description="Bearer key for the LLM endpoint, if it needs one."
    )
    llm_model: str = Field(default="gpt-4o-mini", min_length=1, max_length=200)
    llm_timeout_seconds: float = Field(default=60.0, gt=0, le=600, description="Per LLM request.")
    llm_max_retries: int = Field(
        default=2, ge=0, le=10, description="Retries of an LLM request on 429, 5xx or a connection error."
    )
    llm_max_concurrency: int = Field(
        default=4, ge=1, le=256, description="LLM requests in flight per process."
    )
    worker_metrics_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="`agent-memory worker` serves /healthz and /metrics on this port (0: any free port).",
    )
    worker_metrics_host: str = Field(
        default="127.0.0.1", description="Bind address of the worker's health and metrics port."
    )
    embeddings: Literal["none", "local", "openai", "minilm"] = Field(
        default="local",
        description="Where memory vectors come from: local (the packaged multilingual-e5-small, in-process, "
        "the default), none (lexical recall only), an OpenAI-compatible /v1/embeddings endpoint, or minilm "
        "(the packaged English all-MiniLM-L6-v2; needs the local-embeddings extra).",
    )
    embeddings_base_url: str | None = Field(
        default=None, description="OpenAI-compatible endpoint (…/v1) for AGENT_MEMORY_EMBEDDINGS=openai."
    )
    embeddings_api_key: str | None = Field(default=None, description="Bearer key for that endpoint.")
    embeddings_model: str = Field(default="text-embedding-3-small", min_length=1, max_length=200)
    embeddings_dimensions: int | None = Field(
        default=None, ge=1, le=16000, description="Vector length to ask the endpoint for (unset: its own)."
    )
    embeddings_batch_size: int = Field(default=32, ge=1, le=2048, description="Texts per embedding call.")
    embeddings_timeout_seconds: float = Field(default=30.0, gt=0, le=600, description="Per batch request.")
    embeddings_query_timeout_seconds: float = Field(
        default=2.0, gt=0, le=60, description="Bound on embedding a recall query; past it recall is lexical."
    )
    embeddings_max_retries: int = Field(default=2, ge=0, le=10)
    embeddings_threads: int = Field(
        default=1, ge=1, le=64, description="CPU threads of the local model's matrix products."
    )
    # bench backlog: the worker's backlog on one thread used one core of two with the API idle, and slowed
    # recall beside it; on a pool of one thread per core at SCHED_IDLE it takes every idle core and gives
    # them back to requests at once (app.embeddings.background).
    embeddings_background_threads: int = Field(
        default=0,
        ge=0,
        le=64,
        description="Threads the worker embeds memories on with the local model (0: one per core).",
    )
    embeddings_background_priority: Literal["idle", "low", "normal"] = Field(
        default="idle",
        description="Scheduling priority of those threads: idle (only cores nothing else wants), low "
        "(nice 19) or normal.",
    )
    # bench/tune_semantic.py, medium, weight 1.5: on the messy-chat set the turns after the message they answer
    # (context) reach any@10 0.850 and NDCG 0.585 where the turns alone (source) reach 0.806 / 0.560 (off:
    # 0.772 / 0.522): a short reply ("same lol", "omg yes") means something only after its partner's message.
    # dev_replies: 0.947 / 0.763 against 0.936 / 0.744. It costs about twice the embedding time per memory.
    embeddings_input: Literal["memory", "source", "context"] = Field(
        default="context",
        description="What is embedded per memory: its statement, its source turns, or those turns after the "
        "message they answer.",
    )
    recall_semantic_min_similarity: float = Field(
        default=0.2,
        ge=-1,
        le=1,
        description="Cosine similarity below which the semantic channel ignores a memory.",
    )
    # bench/tune_semantic.py, medium, 0.5 / 1.0 / 1.5 / 2.5 on the messy-chat set: any@10 0.828 / 0.839 / 0.850 /
    # 0.856 (off 0.772), NDCG 0.562 / 0.578 / 0.585 / 0.581 (0.522) with context vectors; with source vectors
    # dev_replies was even at every weight, dev_long's any@10 one or two questions of 53 lower from 1.0 on.
    recall_semantic_weight: float = Field(
        default=1.5, ge=0, le=10, description="Weight of the semantic channel in recall's fusion."
    )
    recall_exact_rows: int = Field(
        default=5_000,
        ge=1,
        le=1_000_000,
        description="Profiles up to this many memories (or messages) are ranked exactly; larger ones on bounded "
        "work (rarest terms looked up, common ones matched in the newest rows, statistics from pg_stats).",
    )
    recall_timeout_seconds: float = Field(
        default=10.0,
        gt=0,
        le=600,
        description="Bound on each of recall's statements: past it the statement is cancelled and the request "
        "answered 503 (a plan gone wrong must not hold a connection, and the pool, for minutes).",
    )
    recall_slots: int | None = Field(
        default=None,
        ge=1,
        le=256,
        description="Recalls one API process runs at a time (their reads and ranking); more wait, within the "
        "pool's bound, then 503. Unset: twice the process's cores.",
    )
    cors_origins: str = Field(
        default="",
        description="Comma-separated origins allowed to call the API from a browser (CORS). Empty: CORS off.",
    )
    webhook_allow_private: str = Field(
        default="",
        description="Webhook targets allowed on non-public addresses: empty (none: loopback, private, link-local "
        "and metadata addresses are refused), `true` (all but cloud metadata addresses), or comma-separated "
        "networks (10.1.0.0/16,127.0.0.1).",
    )
    webhook_timeout_seconds: float = Field(
        default=10.0, gt=0, le=120, description="Bound on one webhook delivery (connect, send, answer)."
    )
    webhook_retry_base_seconds: float = Field(
        default=5.0,
        gt=0,
        le=3600,
        description="First retry of a failed webhook delivery after about this long, doubling (with jitter) up "
        "to 4 hours apart.",
    )
    webhook_retry_window_seconds: float = Field(
        default=86_400.0,
        gt=0,
        le=30 * 86_400,
        description="A failing webhook delivery is tried as many times as the backoff schedule fits in this "
        "window, then given up and the endpoint's next event sent.",
    )
    webhook_disable_after_seconds: float = Field(
        default=5 * 86_400.0,
        gt=0,
        le=90 * 86_400,
        description="An endpoint whose every delivery failed for this long is disabled, with the reason.",
    )
    webhook_secret_grace_seconds: float = Field(
        default=86_400.0,
        ge=0,
        le=30 * 86_400,
        description="After a secret rotation, how long deliveries are signed with the old secret too (default "
        "of rotate-secret's graceSeconds).",
    )
    webhook_concurrency: int = Field(
        default=8, ge=1, le=256, description="Endpoints a worker delivers to at once (each in its own order)."
    )

    @field_validator("database_url", "admin_key", "listen_database_url", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        # An empty variable (`AGENT_MEMORY_ADMIN_KEY=` in a .env file) means the setting is not set.
        return None if value == "" else value

    @field_validator("database_url", "listen_database_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("postgresql://", "postgres://", "postgresql+asyncpg://")):
            raise ValueError("must be a postgresql:// URL")
        return value

    @field_validator("llm_base_url", "embeddings_base_url")
    @classmethod
    def _check_endpoint_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")) or len(value) <= len("https://"):
            raise ValueError("must be an http(s):// URL such as http://127.0.0.1:11434/v1")
        return value

    @field_validator("llm_api_key", "embeddings_api_key")
    @classmethod
    def _check_endpoint_key(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    @model_validator(mode="after")
    def _check_pooler(self) -> Settings:
        # LISTEN through a pooler in transaction mode is accepted and then never hears a NOTIFY: revoked
        # keys would stay trusted in other processes' caches, and workers would wake only by polling.
        if self.db_transaction_pooler and self.listen_database_url is None:
            raise ValueError(
                "AGENT_MEMORY_DB_TRANSACTION_POOLER needs AGENT_MEMORY_LISTEN_DATABASE_URL: a direct URL to "
                "PostgreSQL (LISTEN cannot work through a transaction pooler)"
            )
        return self

    def listen_url(self, database_url: str) -> str:
        """Where LISTEN connects (libpq form): the direct URL if set, else the database's own."""
        return to_plain_url(self.listen_database_url or database_url)

    @model_validator(mode="after")
    def _check_embeddings(self) -> Settings:
        if self.embeddings == "openai" and not self.embeddings_base_url:
            raise ValueError("AGENT_MEMORY_EMBEDDINGS=openai needs AGENT_MEMORY_EMBEDDINGS_BASE_URL")
        return self

    @field_validator("admin_key")
    @classmethod
    def _check_admin_key(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith("amk_") or value.count("_") < 2:
            raise ValueError(
                "must look like amk_<keyId>_<secret> (create one with `agent-memory keys create`)"
            )
        secret = value.rsplit("_", 1)[1]
        # A guessable admin key opens everything: its secret must be long and varied (a minted one holds
        # 48 hex digits, ~190 bits); this bound is a floor, not a measure of randomness.
        bits = len(secret) * math.log2(max(len(set(secret)), 1))
        if len(secret) < ADMIN_SECRET_MIN_CHARS or bits < ADMIN_SECRET_MIN_BITS:
            raise ValueError(
                f"its secret is too weak: at least {ADMIN_SECRET_MIN_CHARS} characters of varied digits and "
                "letters (create one with `agent-memory keys create --admin --env`)"
            )
        return value

    @field_validator("webhook_allow_private")
    @classmethod
    def _check_allow_private(cls, value: str) -> str:
        if value.strip().lower() in ("", "false", "0", "no", "off", "true", "1", "yes", "on", "all"):
            return value.strip()
        for part in value.split(","):
            try:
                ipaddress.ip_network(part.strip(), strict=False)
            except ValueError as exc:
                raise ValueError(f"{part.strip()!r} is not an address or network ({exc})") from None
        return value

    @field_validator("cors_origins")
    @classmethod
    def _check_cors(cls, value: str) -> str:
        for origin in (o.strip() for o in value.split(",")):
            if origin and origin != "*" and not origin.startswith(("http://", "https://")):
                raise ValueError(f"{origin!r} is not an origin: write it as https://app.example.com")
        return value

    @field_validator("read_database_urls")
    @classmethod
    def _check_read_urls(cls, value: str) -> str:
        for url in (u.strip() for u in value.split(",")):
            if url and not url.startswith(("postgresql://", "postgres://", "postgresql+asyncpg://")):
                raise ValueError("each read replica must be a postgresql:// URL (comma-separated)")
        return value

    @property
    def read_database_url_list(self) -> list[str]:
        return [u.strip() for u in self.read_database_urls.split(",") if u.strip()]

    @property
    def cors_origin_list(self) -> list[str]:
        return [o.strip().rstrip("/") for o in self.cors_origins.split(",") if o.strip()]

    @property
    def async_database_url(self) -> str | None:
        """The URL in the form SQLAlchemy's asyncpg dialect wants."""
        if self.database_url is None:
            return None
        return to_async_url(self.database_url)

    def api_processes(self, cores: int | None) -> int:
        """How many API processes `serve` runs: as set, else the machine's cores when the database is
        external (the embedded server shares the machine; one process keeps its footprint small)."""
        if self.workers is not None:
            return self.workers
        return max(1, cores or 1) if self.database_url is not None else 1

    def as_environment(self) -> dict[str, str]:
        """These settings as `AGENT_MEMORY_*` variables, for a child process to read the same ones (values
        given in code, e.g. by tests, included); unset ones are left out."""
        env: dict[str, str] = {}
        for name, value in self.model_dump().items():
            if value is None:
                continue
            key = f"AGENT_MEMORY_{name.upper()}"
            if isinstance(value, bool):
                env[key] = "true" if value else "false"
            elif isinstance(value, list | dict | tuple | set):
                env[key] = json.dumps(list(value) if isinstance(value, set | tuple) else value)
            else:
                env[key] = str(value)
        return env

    def binds_loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


def to_async_url(url: str) -> str:
    for prefix in ("postgresql+asyncpg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    return url


def to_plain_url(url: str) -> str:
    """A libpq-style URL, for asyncpg.connect (LISTEN) and tools."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
