"""Time expressions resolved against a message timestamp (extraction) or a reference date (recall)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from app.core.dates import format_date
from app.language.temporal import (
    detect_tense,
    find_time,
    resolve_event_time,
    resolve_time_window,
)

# Monday 8 May 2023, 14:00 UTC.
ANCHOR = datetime(2023, 5, 8, 14, 0, tzinfo=UTC)


def day(y: int, m: int, d: int, hh: int = 0, mm: int = 0) -> datetime:
    return datetime(y, m, d, hh, mm, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went to the support group yesterday.", day(2023, 5, 7)),
        ("I'm exhausted today.", day(2023, 5, 8)),
        ("We're going out tonight.", day(2023, 5, 8)),
        ("I'll call her tomorrow.", day(2023, 5, 9)),
        ("Last night we watched a movie.", day(2023, 5, 7)),
        ("the day before yesterday I fell", day(2023, 5, 6)),
        ("the day after tomorrow is the match", day(2023, 5, 10)),
        ("Last Friday we had a picnic.", day(2023, 5, 5)),
        ("last Monday was rough", day(2023, 5, 1)),
        ("This Friday is the party.", day(2023, 5, 12)),
        ("Next Friday I fly out.", day(2023, 5, 12)),
        ("On Saturday I went hiking.", day(2023, 5, 6)),
        ("I have a meeting on Wednesday.", day(2023, 5, 10)),
        ("I joined a new group last Tues.", day(2023, 5, 2)),
        ("Last week I started a new job.", day(2023, 5, 1)),
        ("Next week we move.", day(2023, 5, 15)),
        ("Last month I quit.", day(2023, 4, 1)),
        ("Next month we're organizing a parade.", day(2023, 6, 1)),
        ("Last year I visited Portugal.", day(2022, 1, 1)),
        ("Last weekend we painted the nursery.", day(2023, 5, 6)),
        ("Two weeks ago I started guitar.", day(2023, 4, 24)),
        ("2 days ago I lost my keys.", day(2023, 5, 6)),
        ("a few days ago we adopted a puppy", day(2023, 5, 5)),
        ("a couple of weeks ago", day(2023, 4, 24)),
        ("three months ago I moved", day(2023, 2, 8)),
        ("a year ago I graduated", day(2022, 5, 8)),
        ("in 3 days the sale ends", day(2023, 5, 11)),
        ("in two weeks I'm off", day(2023, 5, 22)),
        ("I ran a race on 8 May.", day(2023, 5, 8)),
        ("I ran a race on 3 May.", day(2023, 5, 3)),
        ("I ran a race on 20 May.", day(2022, 5, 20)),
        ("I will run a race on 3 May.", day(2024, 5, 3)),
        ("I'm going to fly on May 20th.", day(2023, 5, 20)),
        ("We married on the 4th of July 2015.", day(2015, 7, 4)),
        ("Concert on Sept. 5!", day(2023, 9, 5)),
        ("On 2023-04-01 I signed the lease.", day(2023, 4, 1)),
        ("The form is dated 05/03/2023.", day(2023, 5, 3)),
        ("It's due on 25/12/2023.", day(2023, 12, 25)),
        ("Monday, 1 May 2023 was fun.", day(2023, 5, 1)),
        ("We went to Rome in April.", day(2023, 4, 1)),
        ("We went to Rome in June.", day(2022, 6, 1)),
        ("We are going to Rome in June.", day(2023, 6, 1)),
        ("In May 2022 we married.", day(2022, 5, 1)),
        ("in 2019 I moved to Boston", day(2019, 1, 1)),
        ("Last summer we went camping.", day(2022, 6, 1)),
        ("Next winter we ski.", day(2023, 12, 1)),
        ("Your appointment is at 3pm on Tuesday.", day(2023, 5, 9, 15, 0)),
        ("Remind me at 9:30 am tomorrow.", day(2023, 5, 9, 9, 30)),
        # Holidays: the last one for past talk, the next one otherwise; Easter and Thanksgiving move.
        ("On New Year's Eve I proposed to her.", day(2022, 12, 31)),
        ("We went skiing over Christmas.", day(2022, 12, 25)),
        ("We're hosting my parents for Christmas.", day(2023, 12, 25)),
        ("Last Easter we painted eggs.", day(2023, 4, 9)),
        ("Next Easter we'll be in Rome.", day(2024, 3, 31)),
        ("I'm cooking the turkey at Thanksgiving.", day(2023, 11, 23)),
        ("He proposed on Valentine’s Day.", day(2023, 2, 14)),
    ],
)
def test_resolve_event_time(text: str, expected: datetime) -> None:
    assert resolve_event_time(text, ANCHOR) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I moved to Lisbon.",
        "This may be the best pizza ever.",
        "You may want to try it.",
        "I love summer.",
        "I love Christmas.",
        "Easter eggs are the best.",
        "We go running on Fridays.",
        "I run every Monday.",
        "It costs 50/50 split.",
        "Add 1/2 cup of sugar.",
        "",
    ],
)
def test_no_time(text: str) -> None:
    assert resolve_event_time(text, ANCHOR) is None


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("What did Caroline do yesterday?", day(2023, 5, 7), day(2023, 5, 8)),
        ("What happened last week?", day(2023, 5, 1), day(2023, 5, 8)),
        ("What is planned this week?", day(2023, 5, 8), day(2023, 5, 15)),
        ("What did Melanie paint in May?", day(2023, 5, 1), day(2023, 6, 1)),
        ("Where did they travel in June?", day(2022, 6, 1), day(2022, 7, 1)),
        ("What did she buy two days ago?", day(2023, 5, 6), day(2023, 5, 7)),
        ("What happened on 8 May?", day(2023, 5, 8), day(2023, 5, 9)),
        ("What did he do last month?", day(2023, 4, 1), day(2023, 5, 1)),
        ("Which trips did she take in 2022?", day(2022, 1, 1), day(2023, 1, 1)),
        ("What did we do last weekend?", day(2023, 5, 6), day(2023, 5, 8)),
        ("What did they do last summer?", day(2022, 6, 1), day(2022, 9, 1)),
        ("What happened in May 2022?", day(2022, 5, 1), day(2022, 6, 1)),
        ("What's happening next week?", day(2023, 5, 15), day(2023, 5, 22)),
        ("What did Dev do on New Year's Eve?", day(2022, 12, 31), day(2023, 1, 1)),
        ("Where did they go at Easter?", day(2023, 4, 9), day(2023, 4, 10)),
    ],
)
def test_resolve_time_window(query: str, start: datetime, end: datetime) -> None:
    assert resolve_time_window(query, ANCHOR) == (start, end)


@pytest.mark.parametrize(
    "query",
    [
        "When did Caroline go to the LGBTQ support group?",
        "What fields would Caroline be likely to pursue in her education?",
        "What is Melanie's favourite colour?",
    ],
)
def test_no_window(query: str) -> None:
    assert resolve_time_window(query, ANCHOR) is None


def test_event_and_window_agree() -> None:
    # An event stored as "last week" falls into the window of a question about "last week".
    when = resolve_event_time("I started a new job last week.", ANCHOR)
    window = resolve_time_window("What did she start last week?", ANCHOR)
    assert when is not None and window is not None
    assert window[0] <= when < window[1]


def test_windows_relative_to_reference_date() -> None:
    ref = datetime(2023, 3, 15, tzinfo=UTC)
    # May is after March, so "in May" is last year's May.
    assert resolve_time_window("What happened in May?", ref) == (day(2022, 5, 1), day(2022, 6, 1))


def test_a_month_without_a_year_is_the_last_one_for_past_talk_and_the_next_one_otherwise() -> None:
    december = datetime(2026, 12, 3, 12, tzinfo=UTC)
    assert resolve_event_time("My daughter Mia turns five in February.", december) == day(2027, 2, 1)
    assert resolve_event_time("We are getting married in March.", december) == day(2027, 3, 1)
    assert resolve_event_time("My daughter was born in February.", december) == day(2026, 2, 1)
    assert resolve_event_time("The office closes in December.", december) == day(2026, 12, 1)


def test_a_part_of_a_period_is_its_first_middle_or_last_third() -> None:
    ref = datetime(2025, 11, 20, 12, tzinfo=UTC)
    cases = {
        "What job did she quit at the start of the year?": (day(2025, 1, 1), day(2025, 5, 3)),
        "What did she do at the end of last year?": (day(2024, 9, 1), day(2025, 1, 1)),
        "What did he do in early 2024?": (day(2024, 1, 1), day(2024, 5, 2)),
        "What happened in late summer?": (day(2025, 8, 1), day(2025, 9, 1)),
        "What did I do in mid-May?": (day(2025, 5, 11), day(2025, 5, 22)),
    }
    for question, window in cases.items():
        assert resolve_time_window(question, ref) == window, question
    # An idiom names no time; the season alone still says nothing about when.
    assert resolve_time_window("At the end of the day, what matters?", ref) is None
    assert find_time("I love summer", ref) is None
    mention = find_time("I started at the bank in early March.", ref)
    assert mention is not None and mention.label == "early March 2025" and mention.point == day(2025, 3, 1)


def test_week_boundaries_on_sunday_and_new_year() -> None:
    sunday = datetime(2023, 1, 1, 10, tzinfo=UTC)
    assert resolve_time_window("last week", sunday) == (day(2022, 12, 19), day(2022, 12, 26))
    assert resolve_event_time("last weekend", sunday) == day(2022, 12, 24)
    assert resolve_event_time("last month", sunday) == day(2022, 12, 1)


def test_format_and_labels() -> None:
    assert format_date(day(2023, 5, 8)) == "8 May 2023"
    assert format_date(date(2024, 12, 25)) == "25 December 2024"
    assert _label("I went yesterday") == "7 May 2023"
    assert _label("last week") == "the week before 8 May 2023"
    assert _label("we went in April") == "April 2023"
    assert _label("last summer") == "summer 2022"
    assert find_time("nothing here", ANCHOR) is None


def _label(text: str) -> str:
    mention = find_time(text, ANCHOR)
    assert mention is not None, text
    return mention.label


def test_tense() -> None:
    assert detect_tense("I went there") == "past"
    assert detect_tense("I will go there") == "future"
    assert detect_tense("I'm going to go") == "future"
    assert detect_tense("I'm so excited") == "present"


def test_mention_span_points_at_the_expression() -> None:
    text = "Oh, I went to the group last Friday with Anna."
    mention = find_time(text, ANCHOR)
    assert mention is not None
    assert text[mention.span[0] : mention.span[1]] == "last Friday"
    assert mention.granularity == "day"
