"""The second stage of recall: rerank the fused top 50–100 with features the first stage cannot see.

The first stage ranks each channel on its own and fuses ranks. Here every candidate is looked at whole:

* **specificity**: the share of the question's weight (the IDF of its terms within the profile) that
  the memory, its context or its source turns hold. Rare terms (content nouns: "carburettor", "Vespa")
  weigh more than common ones ("enjoy", "watch", "go"), from the profile's own statistics, not a list;
* **speaker constraint**: a question naming a person who speaks in the profile ("What did Melanie…")
  narrows to memories about that person; the name is a filter, not content to match;
* **agreement**: how many channels found the candidate;
* **proximity**: closeness to another strong candidate in the same session (evidence of one answer tends
  to sit in neighbouring turns);
* **answer type**: the question asks for a time, a place, a person or a number, and the memory holds
  one (`app.recall.answer_types`);
* **the agent's own words** (`app.memories.repository.agent_words`): scaled below what the people said;
* **related words**: the share of the question's weight the memory holds in other words ("dessert" and
  "pie", "nervous" and "anxious"), from a table of word vectors (`app.recall.related_words`);
* the first stage's own fused score, which already carries the type and recency priors.

Python and one small matrix product on at most a hundred candidates, no extra round trip.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from itertools import repeat

from app.language.folding import uncased
from app.language.languages import RELATIONS
from app.recall.answer_types import asked_for, holds
from app.recall.related_words import relatedness
from app.recall.repository import Candidate


@dataclass(frozen=True)
class Weights:
    """The weight of each feature in a candidate's new score, chosen on the development sets
    (`bench/eval_retrieval.py`). Fitted jointly instead (`bench/tune_rerank.py`, leave one set out), they
    found less on each left-out set than these, by 0.4 to 1.8 points of any@10."""

    first: float = 1.0
    specific: float = 1.0
    agree: float = 0.15
    near: float = 0.5
    # On all four development sets 0.5–0.8 gained (any@10 +0.4 to +5.7 points, NDCG@10 +1.8 to +2.7 at
    # 0.6), 0.25 about half as much, 1.2 lost some again; leaving out any one type found less on some set.
    answer_type: float = 0.6
    # Weights 1–3 with thresholds 0.3–0.4 all gained on dev_locomo and dev_long (any@10 +0.8 to +3.8
    # points, MRR up to +4.5) and lost one or two of dev_replies' 94 questions; 2 is the middle.
    related: float = 2.0
    off_speaker: float = 0.4  # factor for a memory that is not about the person the question names
    # Factor for the assistant's own words (advice, suggestions, its summaries), which are not what the
    # people said: chosen on dev_assistant (a person and their AI assistant), where 0.7 raised any@10
    # from 0.733 to 0.775, 0.5 to 0.783 and 0.4 or less to 0.800 (bench/tune_rerank.py); the other sets,
    # where both speakers are people, are unchanged.
    by_agent: float = 0.3
    # Factor for a statement by someone other than the one person the question names ("Where has Ana
    # lived?": her partner's "Lisbon is lovely in May, Ana would love it" below her own "I lived in Lisbon").
    partner: float = 0.8


FEATURES = ("first", "specific", "agree", "near", "answer_type", "related")
FACTORS = ("off_speaker", "by_agent", "partner")
DEFAULT_WEIGHTS = Weights()
NEAR_TOP = 5  # strong candidates whose neighbours get the proximity feature
NEAR_SCALE = 2.0  # turns of distance at which proximity falls to 1/e

# The shortest question term taken for a name part: three letters ("Mel"), or two characters of a script
# without case.
NAME_TERM_CHARS = 3
UNCASED_NAME_TERM_CHARS = 2
_CAPITALISED_RE = re.compile(r"\b[A-Z][\w'’-]*")


@dataclass(frozen=True)
class Query:
    """What the second stage needs of the question: its term weights and the profile's statistics."""

    terms: dict[
        str, float
    ]  # lexeme → the question's weight for it (1 for its own words, less for expansions)
    df: dict[str, int]
    n: int
    text: str  # the question as asked
    language: str  # the question's (ISO 639-1): its words say what kind of answer it asks for


def idf(df: int, n: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def name_terms(query: Query, rows: dict[str, Candidate]) -> set[str]:
    """The question's terms that are the name of someone speaking in these memories."""
    return set(named_speakers(query, rows))


def named_speakers(query: Query, rows: dict[str, Candidate]) -> dict[str, set[str]]:
    """The question's terms that name someone speaking in these memories (their stored speaker), each with
    the name parts it matches: the name, its start ("Mel" for Melanie), a longer form of it ("Benji" for
    Ben), or a spelling within an edit or two (`same_name`)."""
    names = {s.lower() for row in rows.values() if (s := row.speaker)}
    parts = {part for name in names for part in name.split()}
    # Only a word written with a capital may be a variant of a name ("Martha"), never "park" for Mark.
    capitalised = [w.lower() for w in _CAPITALISED_RE.findall(query.text)]
    found: dict[str, set[str]] = {}
    for term in query.terms:
        # A script without case (Chinese, Japanese, Korean) is searched by pairs of characters: a pair within
        # a name ("小明" of "王小明") names its speaker.
        without_case = term.isalpha() and uncased(term)
        if len(term) < (UNCASED_NAME_TERM_CHARS if without_case else NAME_TERM_CHARS):
            continue
        matched = {p for p in parts if p.startswith(term) or (without_case and term in p)}
        if not matched and any(w.startswith(term) for w in capitalised):
            matched = {p for p in parts if same_name(term, p)} or _nicknamed(term, rows, query.language)
        if matched:
            found[term] = matched
    return found


@functools.cache
def _nickname(language: str) -> re.Pattern[str] | None:
    """How a speaker of `language` says the name they go by ("call me Bex": `nickname` of its `RELATIONS`)."""
    words = RELATIONS.get(language)
    return re.compile(words.nickname, re.IGNORECASE) if words and words.nickname else None


def _nicknamed(term: str, rows: dict[str, Candidate], language: str) -> set[str]:
    """The name parts of the speakers who said they go by a nickname this term starts ("Bex")."""
    found: set[str] = set()
    pattern = _nickname(language)
    if pattern is None:
        return found
    for row in rows.values():
        speaker = row.speaker
        if speaker is None:
            continue
        for m in pattern.finditer(row.content):
            if m["nickname"].lower().startswith(term):
                found.update(speaker.lower().split())
    return found


# Spelling variants of a name: at most one edit for names of four to six letters, two from seven.
_NAME_EDITS = ((7, 2), (4, 1))


def same_name(term: str, name: str) -> bool:
    """Whether a question's (stemmed) term may be this speaker's name part: one starts the other (three
    letters at least: "Mel", "Benji"), or they differ by an edit or two, or they sound alike (`_sound`)."""
    if len(term) < 3 or len(name) < 3:
        return False
    term, name = _unaccented(term), _unaccented(name)
    if name.startswith(term) or term.startswith(name):
        return True
    shorter = min(len(term), len(name))
    allowed = next((edits for length, edits in _NAME_EDITS if shorter >= length), 0)
    return (allowed and _edits(term, name, allowed) <= allowed) or (
        shorter >= 3 and _sound(term) == _sound(name)
    )


def _unaccented(word: str) -> str:
    """A Latin name without its accents ("élodie" → "elodie"): a spelling variant, not another name."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _edits(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, stopped past `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


_SOUND_RULES = (
    ("ph", "f"),
    ("th", "t"),
    ("ck", "k"),
    ("c", "k"),
    ("q", "k"),
    ("z", "s"),
    ("y", "i"),
    ("w", "v"),
)


def _sound(name: str) -> str:
    """A rough phonetic key for Latin-script names ("Katherine" and "Catherine", "Stefan" and "Stephan"):
    spelling rules, vowels after the first letter dropped, doubled letters collapsed, a final "h" or "e"
    dropped."""
    key = name.lower()
    for spelled, sound in _SOUND_RULES:
        key = key.replace(spelled, sound)
    key = key[:1] + re.sub(r"[aeiouh]", "", key[1:])
    return re.sub(r"(.)\1+", r"\1", key)


@dataclass(slots=True)  # one per candidate: slotted, not frozen (see `repository.Candidate`)
class Features:
    """What the second stage sees of one candidate: a value per name in `FEATURES`, whether it is about
    someone other than the person the question names, and whether it is the assistant's own words."""

    values: tuple[float, ...]
    off_speaker: bool
    by_agent: bool
    by_partner: bool = False  # said by someone other than the one person the question names

    def factors(self) -> tuple[str, ...]:
        """The weights of `FACTORS` that scale this candidate's score down (the score and the trace's one
        reading of the flags above)."""
        applies = {"off_speaker": self.off_speaker, "by_agent": self.by_agent, "partner": self.by_partner}
        return tuple(name for name in FACTORS if applies[name])


def features(
    fused: dict[str, float],
    rows: dict[str, Candidate],
    hits: dict[str, int],
    query: Query,
    channel_count: int,
) -> dict[str, Features]:
    """The features of the candidates in `fused` (all of them present in `rows`); `hits[m]` is how many
    channels found m out of `channel_count`."""
    if not fused:
        return {}
    speakers = named_speakers(query, rows)
    names = set(speakers)
    asked_about = set().union(*speakers.values()) if speakers else set()
    # One person named: the statements of someone else (their partner) come after their own.
    one_person = len(asked_about) == 1
    weights = {
        t: w * idf(query.df.get(t, 0), max(query.n, 1)) for t, w in query.terms.items() if t not in names
    }
    total = sum(weights.values())
    top = max(fused.values())
    first = {m: s / top for m, s in fused.items()}

    strong = sorted(first, key=lambda m: first[m], reverse=True)[:NEAR_TOP]
    # The strong candidates' places, by session, for the proximity of the others in the same session.
    placed: dict[str | None, list[tuple[str, int, float]]] = defaultdict(list)
    for m in strong:
        if (seq := rows[m].seq) is not None:
            placed[rows[m].session_id].append((m, seq, first[m]))
    asked = asked_for(query.text, query.language)
    related = relatedness(query.text, weights, rows)
    agree_scale = 1 / max(channel_count - 1, 1)
    out: dict[str, Features] = {}
    for memory_id, score in first.items():
        row = rows[memory_id]
        # A memory holds a few of the question's terms: sum over those, not over the question's.
        held = {*row.memory_terms, *row.message_terms}
        specific = sum(map(weights.get, held, repeat(0.0))) / total if total > 0 else 0.0
        near = 0.0
        if (own_seq := row.seq) is not None and row.session_id in placed:
            for other, seq, strength in placed[row.session_id]:
                if other != memory_id:
                    near = max(near, strength * math.exp(-abs(seq - own_seq) / NEAR_SCALE))
        # In the order of FEATURES.
        values = (
            score,
            specific,
            (hits.get(memory_id, 1) - 1) * agree_scale,
            near,
            1.0 if asked is not None and holds(asked, row, query.language) else 0.0,
            related.get(memory_id, 0.0),
        )
        said_by = set(row.speaker.lower().split()) if row.speaker else set()
        out[memory_id] = Features(
            values,
            off_speaker=bool(names)
            and asked_about.isdisjoint(said_by)
            and names.isdisjoint(row.memory_terms)
            and not _mentions(row, asked_about),
            by_agent=row.by_agent,
            by_partner=one_person and bool(said_by) and asked_about.isdisjoint(said_by),
        )
    return out


def _mentions(row: Candidate, name_parts: set[str]) -> bool:
    """Whether a memory's summary or content names one of these people (as spelled in the profile)."""
    if not name_parts:
        return False
    words = set(re.findall(r"\w+", f"{row.summary} {row.content}".lower()))
    return not name_parts.isdisjoint(words)


def score(found: dict[str, Features], weights: Weights = DEFAULT_WEIGHTS) -> dict[str, float]:
    """Each candidate's new score: its features weighed, scaled down when it is off the question's person
    or the assistant's own words."""
    w = tuple(getattr(weights, name) for name in FEATURES)
    out: dict[str, float] = {}
    for memory_id, f in found.items():
        value = sum(a * b for a, b in zip(w, f.values, strict=True))
        for factor in f.factors():
            value *= getattr(weights, factor)
        out[memory_id] = value
    return out
