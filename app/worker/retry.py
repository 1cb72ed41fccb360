"""The retry policy: how long a failed job waits before its next attempt, and when it has had enough.

Exponential backoff with jitter (so jobs that failed together do not retry together), capped at an hour.
A lost database connection is not the job's fault: it is retried after a short pause instead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

MAX_DELAY_SECONDS = 3600.0
# After a lost connection: long enough for a fast restart to finish, short enough to resume at once.
CONNECTION_LOST_DELAY_SECONDS = 1.0


@dataclass(frozen=True)
class RetryPolicy:
    backoff_seconds: float
    max_attempts: int

    def attempts_allowed(self, job_max_attempts: int | None) -> int:
        """The job's own limit, else the setting's."""
        return job_max_attempts or self.max_attempts

    def exhausted(self, attempts: int, job_max_attempts: int | None) -> bool:
        return attempts >= self.attempts_allowed(job_max_attempts)

    def delay(self, attempts: int) -> float:
        """Seconds before the next attempt, after `attempts` failed ones (1 → about backoff)."""
        base: float = self.backoff_seconds * 2.0 ** max(attempts - 1, 0)
        return float(min(base * random.uniform(0.5, 1.5), MAX_DELAY_SECONDS))
