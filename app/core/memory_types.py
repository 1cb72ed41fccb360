"""The memory types and, in one table, everything that differs between them.

Every place that treats one type differently from another reads it here: the API schema's enum, the
extractors (the LLM prompt's list of types, the valid answers), supersession in the memories SQL, recall's
type prior and the demotion of an older session's items, the summary's sections, and which types get
vectors. Adding a type is one `TypePolicy` entry in `POLICIES` (plus its tests); nothing else lists the
types by hand.

It lives in `app.core` because extraction, llm, memories, recall, summary and profiles all read it and it
depends on nothing of theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum, StrEnum


class MemoryType(StrEnum):
    """What kind of thing a memory says; the API's `type` field."""

    FACT = "fact"
    EVENT = "event"
    INSTRUCTION = "instruction"
    TASK = "task"


class SummaryLines(Enum):
    """How a type's summary section chooses its lines."""

    # Topic-keyed memories (lasting attributes like user.home_city) first, then statements of substance,
    # then one-line remarks; each group newest first.
    TOPIC_KEYED_FIRST = "topic_keyed_first"
    # Only those dated inside the recent window (upcoming ones included), latest first; bullets lead
    # with the date.
    RECENT_DATED = "recent_dated"
    # Newest first.
    NEWEST = "newest"


@dataclass(frozen=True)
class TypePolicy:
    """The rules of one memory type."""

    type: MemoryType
    # The type's name in prose, plural ("facts"), for prompts and docs.
    plural: str
    # What the LLM extractor is told the type means (one line of its prompt, after the quoted name).
    llm_description: str
    # A newer memory with the same topic key supersedes an active one of a superseding type.
    supersedes: bool
    # Recall's prior for the type (a small tie-breaking channel): higher ranks earlier.
    recall_prior: float
    # Recall and the summary put the type's items of an older session after the newest session's.
    ranks_lower_after_its_session: bool
    # The type has a time of its own (event time, else its source messages'); shown with its date.
    dated: bool
    # The summary section the type fills, where it stands among the sections, and its share of the budget.
    summary_section: str
    summary_position: int
    summary_share: float
    summary_lines: SummaryLines
    # Lines of the section are shown oldest first (a story, instructions as given) instead of by priority.
    summary_chronological: bool
    # New memories of the type get an embedding for the semantic channel.
    embedded: bool = True


# In the order the extractors decide a statement's type: the first that fits wins (an instruction that
# names a date is still an instruction). Recall priors: lasting statements first, then events, tasks
# last. Summary shares: the low ends of the spec's ranges (with the Last Session's 15 %, they add up to
# the whole budget).
POLICIES: tuple[TypePolicy, ...] = (
    TypePolicy(
        type=MemoryType.INSTRUCTION,
        plural="instructions",
        llm_description='how the agent should behave ("always…", "never…", "please don\'t…", '
        '"from now on…", "I prefer you…", tone, format, language of answers)',
        supersedes=True,
        recall_prior=0.3,
        ranks_lower_after_its_session=False,
        dated=False,
        summary_section="Instructions",
        # Last, in the order the spec gives the sections (Key Facts, Recent Events, Active Tasks, Last Session,
        # Instructions): the section closest to the conversation that follows the prompt.
        summary_position=50,
        summary_share=0.20,
        summary_lines=SummaryLines.NEWEST,
        summary_chronological=True,
    ),
    TypePolicy(
        type=MemoryType.TASK,
        plural="tasks",
        llm_description='something to be done ("need to", "remind me", "todo", a deadline)',
        supersedes=False,
        recall_prior=0.15,
        ranks_lower_after_its_session=True,
        dated=False,
        summary_section="Active Tasks",
        summary_position=30,
        summary_share=0.15,
        summary_lines=SummaryLines.NEWEST,
        summary_chronological=False,
    ),
    TypePolicy(
        type=MemoryType.EVENT,
        plural="events",
        llm_description='something that happened or will happen at a time ("yesterday", "last Friday", '
        '"on 8 May", "next week")',
        supersedes=False,
        recall_prior=0.2,
        ranks_lower_after_its_session=False,
        dated=True,
        summary_section="Recent Events",
        summary_position=20,
        summary_share=0.25,
        summary_lines=SummaryLines.RECENT_DATED,
        summary_chronological=True,
    ),
    TypePolicy(
        type=MemoryType.FACT,
        plural="facts",
        llm_description="a lasting statement about the user, another person, or the world",
        supersedes=True,
        recall_prior=0.25,
        ranks_lower_after_its_session=False,
        dated=False,
        summary_section="Key Facts",
        summary_position=10,
        summary_share=0.25,
        summary_lines=SummaryLines.TOPIC_KEYED_FIRST,
        summary_chronological=False,
    ),
)

_BY_TYPE: dict[str, TypePolicy] = {p.type.value: p for p in POLICIES}

# What a memory of no recognisable type is taken for (an extractor's fallback, a row read without one):
# a plain statement, which supersedes nothing and is not dated.
DEFAULT_TYPE = MemoryType.FACT


def policy(memory_type: str) -> TypePolicy:
    """The policy of a type, given as the enum or its stored string; KeyError for an unknown one."""
    return _BY_TYPE[str(memory_type)]


def types_where(rule: Callable[[TypePolicy], bool]) -> tuple[MemoryType, ...]:
    """The types whose policy satisfies `rule`, in table order."""
    return tuple(p.type for p in POLICIES if rule(p))


def types_in_prose() -> str:
    """The types as a reader would list them, in summary order: "facts, events, tasks and instructions"."""
    plurals = [p.plural for p in sorted(POLICIES, key=lambda p: p.summary_position)]
    return ", ".join(plurals[:-1]) + " and " + plurals[-1] if len(plurals) > 1 else plurals[0]


def sql_list(types: Iterable[MemoryType]) -> str:
    """A parenthesised SQL list of type literals (`('fact', 'instruction')`) for a statement's text.

    The values are the enum's own constants, never client input, so writing them into the SQL is safe,
    and the statement stays one fixed text the planner caches.
    """
    values = [t.value for t in types]
    if not values:
        return "(NULL)"  # `type IN (NULL)` matches nothing, as an empty list should
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


SUPERSEDING_TYPES: tuple[MemoryType, ...] = types_where(lambda p: p.supersedes)
DATED_TYPES: tuple[MemoryType, ...] = types_where(lambda p: p.dated)
EMBEDDED_TYPES: tuple[MemoryType, ...] = types_where(lambda p: p.embedded)
