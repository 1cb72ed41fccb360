"""SQL of recall, in two round trips: `analyse` (the profile, the question's lexemes and the profile's
statistics) and `channels` (every lexical channel at once, with what the later stages read of every
candidate); with the semantic channel, a third, `details`, for the candidates only it found.

Full-text ranking is BM25 over PostgreSQL's own lexemes: each query term weighs
`ln(1 + (N − df + ½)/(df + ½))` (its rarity in the profile) times a saturating count of its occurrences
(summary weighted above content), summed over the terms a row matches — an OR of terms, so a question
matches without repeating every word.

**Cost follows the matches, not the profile.** Rows are found through the GIN index whose keys are the
profile's own lexemes (`app.core.profiled_text`). A profile up to `Settings.recall_exact_rows` rows is ranked
exactly: every row matching any term is a candidate, and df and N are counted. A larger profile is ranked
on bounded work: the rarest terms are looked up in the index while their estimated rows (from PostgreSQL's
own statistics, `pg_stats`, read once a minute) add up to `LOOKUP_BUDGET`; the common ones — their posting
lists grow with the profile — are matched only in the profile's newest `WALK_ROWS` rows, and their df and
the profile's N are those estimates.

One module per round trip, all re-exported here: `analysis` (`analyse`, the statistics, `Visible`),
`channel_sql` (the statements' SQL) and `channels` (`channels` and `details`, and what they return)."""

from __future__ import annotations

from app.recall.repository.analysis import (
    CATALOG_SECONDS,
    HIT_CAP,
    LOOKUP_BUDGET,
    RELATION_ROWS,
    WALK_ROWS,
    Analysis,
    Catalog,
    TableStats,
    Visible,
    analyse,
    catalog,
)
from app.recall.repository.channel_sql import (
    K1,
    NEAR_SEEDS,
    NEAR_TURNS,
    TYPE_WALK_ROWS,
    Shape,
)
from app.recall.repository.channels import (
    Candidate,
    Channels,
    Terms,
    channels,
    details,
)

__all__ = [
    "Analysis",
    "CATALOG_SECONDS",
    "Candidate",
    "Catalog",
    "Channels",
    "HIT_CAP",
    "K1",
    "LOOKUP_BUDGET",
    "NEAR_SEEDS",
    "NEAR_TURNS",
    "RELATION_ROWS",
    "Shape",
    "TYPE_WALK_ROWS",
    "TableStats",
    "Terms",
    "Visible",
    "WALK_ROWS",
    "analyse",
    "catalog",
    "channels",
    "details",
]
