"""Behaviour of the default extractor: what is kept, how it is typed, keyed, dated and summarised."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.extraction import (
    DefaultExtractor,
    ExtractedMemory,
    InputMessage,
    classify_one,
    classify_statement,
    content_hash,
    extract_memories,
)

# A Monday afternoon: weekday arithmetic below is relative to it.
TS = datetime(2023, 5, 8, 14, 0, tzinfo=UTC)


def one(text: str, role: str = "user") -> ExtractedMemory | None:
    return classify_statement(text, role, TS)


def msgs(*turns: tuple[str, str]) -> list[InputMessage]:
    return [InputMessage(f"m{i}", role, text, TS) for i, (role, text) in enumerate(turns)]


INSTRUCTIONS = [
    "Never use emojis.",
    "From now on answer in French.",
    "Always reply in English, please.",
    "Please don't use bullet points.",
    "I prefer you to keep answers short.",
    "Please be more concise.",
    "Stop using markdown tables.",
    "Keep your answers under three sentences.",
    "Don't call me sir.",
    "Call me Sam.",
    "I'd like you to use metric units.",
    "Going forward, respond in a formal tone.",
    "Always include code examples when you explain something.",
    "Do not apologize so much.",
    "Please address me as Dr. Patel.",
    "I want you to always cite your sources.",
    "Never give me medical disclaimers.",
    "Could you please stop using emojis?",
    "Can you always answer in Spanish?",
    "Avoid jargon when you explain things.",
    "Use a friendly, casual tone with me.",
    "Thanks! From now on answer in French.",
    "In future, format dates as DD/MM/YYYY.",
    "Please never mention the weather again.",
    "Your responses should be brief.",
]

TASKS = [
    "I need to renew my passport by June 3.",
    "Remind me to call mom tomorrow.",
    "Remind me to water the plants on Friday.",
    "I have to finish the report by Friday.",
    "Todo: buy milk and eggs.",
    "Don't let me forget to pay the rent.",
    "I must submit my tax return before April 15.",
    "I should book a dentist appointment.",
    "The assignment is due next Monday.",
    "I've got to pick up the kids at 3pm.",
    "We need to get the car serviced next week.",
    "Can you remind me to email Jake on Monday?",
    "I'll send you the slides tonight.",
    "My deadline for the grant application is 30 June.",
    "I still need to buy a gift for Anna's birthday.",
    "Make sure I call the bank before noon.",
    "I'm supposed to pick up the dry cleaning today.",
    "I gotta fix the leaking tap this weekend.",
]

EVENTS = [
    "I went to the LGBTQ support group yesterday.",
    "Last Friday we went camping in Yosemite.",
    "I ran a charity race on 8 May.",
    "Two weeks ago I started learning the guitar.",
    "My sister got married last summer.",
    "We adopted a puppy a few days ago.",
    "I'm flying to Tokyo next Thursday.",
    "Yesterday I finally finished my first marathon!",
    "Last weekend we painted the nursery together.",
    "On 2023-04-01 I signed the lease.",
    "I'm going to a Taylor Swift concert on 20 June.",
    "Last year I visited my grandparents in Portugal.",
    "My mom had surgery last month.",
    "Three days ago I lost my wallet on the train.",
    "We're having a barbecue this Saturday.",
    "I met my best friend for coffee this morning.",
    "Tomorrow I start my new job at the bakery.",
    "I just signed up for a pottery class!",
]

FACTS = [
    "I moved to Lisbon.",
    "I don't eat meat.",
    "I love Thai food.",
    "My favourite colour is blue.",
    "I work as a nurse.",
    "My name is Sam.",
    "I'm 32 years old.",
    "My wife is called Anna.",
    "I have a dog named Max.",
    "I'm allergic to peanuts.",
    "I grew up in Ohio.",
    "My daughter plays the violin.",
    "I've been vegetarian for ten years.",
    "I'm a software engineer at Google.",
    "The capital of France is Paris.",
    "I prefer tea over coffee.",
    "My favorite band is Radiohead.",
    "I live in Berlin with my two cats.",
    "I'm keen on counseling or working in mental health.",
    "I hate horror movies.",
    "I'm married to Tom.",
    "I'm studying psychology at NYU.",
]

CHITCHAT = [
    "Hi!",
    "Hey Mel! Good to see you!",
    "Thanks so much!",
    "Thank you for the tips!",
    "ok",
    "Sounds good.",
    "haha",
    "lol",
    "That's amazing!",
    "Wow, so cool",
    "Never mind.",
    "Do you like hiking?",
    "What's the capital of France?",
    "How are you doing?",
    "I'm so happy for you!",
    "Good night!",
    "You got this!",
    "Take care!",
    "No worries.",
    "That's so sweet of you.",
    "Awesome, thanks!",
    "Have a great day!",
    "Me too!",
    "I know, right?",
    "Glad to hear that!",
    "😂😂",
]


@pytest.mark.parametrize("text", INSTRUCTIONS)
def test_instructions(text: str) -> None:
    memory = one(text)
    assert memory is not None and memory.type == "instruction", memory


@pytest.mark.parametrize("text", TASKS)
def test_tasks(text: str) -> None:
    memory = one(text)
    assert memory is not None and memory.type == "task", memory


@pytest.mark.parametrize("text", EVENTS)
def test_events_are_dated(text: str) -> None:
    memory = one(text)
    assert memory is not None and memory.type == "event", memory
    assert memory.event_time is not None


@pytest.mark.parametrize("text", FACTS)
def test_facts(text: str) -> None:
    memory = one(text)
    assert memory is not None and memory.type == "fact", memory


@pytest.mark.parametrize("text", CHITCHAT)
def test_chitchat_is_dropped(text: str) -> None:
    assert one(text) is None
    assert extract_memories(msgs(("user", text))) == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I moved to Lisbon", "user.home_city"),
        ("We just moved to Denver last month.", "user.home_city"),
        ("I live in Berlin with my two cats.", "user.home_city"),
        ("My favourite colour is blue", "user.favourite_color"),
        ("My favorite color is now green.", "user.favourite_color"),
        ("Green is my favourite colour.", "user.favourite_color"),
        ("My favourite movies are the Godfather films.", "user.favourite_movie"),
        ("I work as a nurse.", "user.job"),
        ("I'm a high school teacher.", "user.job"),
        ("I work at Google.", "user.employer"),
        ("My name is Sam.", "user.name"),
        ("I'm 32 years old.", "user.age"),
        ("I just turned 40!", "user.age"),
        ("My wife is called Anna.", "user.partner"),
        ("I'm married to Tom.", "user.partner"),
        ("My dog's name is Rex.", "user.dog_name"),
        ("I'm vegan.", "user.diet"),
        ("I don't eat meat.", "user.diet"),
        ("I grew up in Ohio.", "user.hometown"),
        ("My email is sam@example.com.", "user.email"),
        ("My team is Arsenal.", "user.team"),
        ("Never use emojis.", "agent.emoji"),
        ("Always use emojis!", "agent.emoji"),
        ("From now on answer in French.", "agent.language"),
        ("Please reply in German.", "agent.language"),
        ("Please be more formal.", "agent.tone"),
        ("Use bullet points in your answers.", "agent.format"),
        ("Keep your answers concise.", "agent.length"),
        ("Use metric units.", "agent.units"),
        ("Call me Sam.", "agent.address_as"),
    ],
)
def test_topic_keys(text: str, key: str) -> None:
    memory = one(text)
    assert memory is not None and memory.topic_key == key, memory


@pytest.mark.parametrize(
    "text",
    [
        "I love Thai food.",
        "My mom is a nurse.",
        "My knee is sore today.",
        "I don't live in Berlin anymore.",
        "I went hiking yesterday.",
        "Never give up on your dreams, Caroline: Melanie said that.",
    ],
)
def test_no_topic_key_for_things_that_accumulate(text: str) -> None:
    memory = one(text)
    assert memory is not None and memory.topic_key is None, memory


def test_topic_key_uses_the_speaker() -> None:
    [memory] = extract_memories(msgs(("user", "Caroline: My favourite colour is purple.")))
    assert memory.topic_key == "caroline.favourite_color"
    [memory] = extract_memories(msgs(("user", "Caroline: I moved to Boston in 2019.")))
    assert memory.topic_key == "caroline.home_city"
    assert memory.type == "fact"
    assert memory.event_time == datetime(2019, 1, 1, tzinfo=UTC)


def test_summary_resolves_first_person() -> None:
    memory = one("I moved to Lisbon")
    assert memory is not None
    assert memory.summary == "User moved to Lisbon"
    assert memory.content == "I moved to Lisbon"
    memory = one("I love Thai food and my sister loves it too.")
    assert memory is not None
    assert memory.summary.startswith("User loves Thai food and their sister")
    # A plural subject keeps its verb.
    memory = one("Ana and I are going to Lisbon in May.")
    assert memory is not None and memory.summary.startswith("Ana and User are going to Lisbon"), memory


def test_a_holiday_stays_named_in_the_summary_with_its_date() -> None:
    memory = one("My mum is staying with us for Easter.")
    assert memory is not None and memory.event_time is not None
    assert "for Easter (" in memory.summary and "for (" not in memory.summary, memory.summary


def test_speaker_prefix_names_the_summary_and_stays_in_content() -> None:
    [memory] = extract_memories(msgs(("user", "Caroline: I went to the LGBTQ support group yesterday.")))
    assert memory.content == "Caroline: I went to the LGBTQ support group yesterday."
    # The relative word gives way to the absolute date.
    assert memory.summary == "Caroline went to the LGBTQ support group (7 May 2023)"
    assert memory.type == "event"
    assert memory.event_time == datetime(2023, 5, 7, tzinfo=UTC)
    assert memory.source_message_ids == ("m0",)


def test_explicit_speaker_field_wins() -> None:
    message = InputMessage("x", "user", "I adopted a cat named Luna.", TS, speaker="Jon")
    [memory] = extract_memories([message])
    assert memory.summary.startswith("Jon adopted a cat")
    assert memory.content.startswith("Jon: ")
    assert memory.topic_key == "jon.cat_name"


def test_labels_are_not_speakers() -> None:
    [memory] = extract_memories(msgs(("user", "Reminder: pay the electricity bill by Friday.")))
    assert memory.type == "task"
    assert memory.content.startswith("Reminder: ")


def test_assistant_second_person_becomes_user() -> None:
    [memory] = extract_memories(msgs(("assistant", "Your appointment is at 3pm on Tuesday.")))
    assert memory.type == "event"
    assert memory.summary.startswith("User's appointment is at 3pm on 9 May 2023")
    assert memory.event_time == datetime(2023, 5, 9, 15, 0, tzinfo=UTC)
    [memory] = extract_memories(msgs(("assistant", "Your favourite colour is teal, you told me.")))
    assert memory.topic_key == "user.favourite_color"


def test_a_time_phrase_that_completes_a_copula_becomes_its_date() -> None:
    # Taken out, "yesterday" would leave "First day was." (#39: text intact); it becomes the date instead.
    [memory] = extract_memories(msgs(("user", "first day was yesterday. everyone's SO nice there")))
    assert memory.summary.startswith("First day was on ")
    assert "was." not in memory.summary
    # Elsewhere the relative word still goes and the date is appended.
    [memory] = extract_memories(msgs(("user", "I ran a marathon yesterday.")))
    assert memory.summary.startswith("User ran a marathon (")


def test_second_person_between_named_friends_is_the_other_speaker() -> None:
    memories = extract_memories(
        msgs(
            ("user", "Caroline: I'm thinking about a career in counseling."),
            ("assistant", "Melanie: You'd be great at the counseling program in Lakeside."),
        )
    )
    assert [m.summary for m in memories][1].startswith("Melanie: Caroline would be great at the counseling")


def test_long_message_is_split_into_statements_and_chitchat_dropped() -> None:
    text = (
        "Hey Mel! Good to see you! I'm swamped with work. Dr. Lee said my results look fine, e.g. the blood "
        "test was 5.5 which is normal. Thanks! From now on answer in French. Do you like hiking? "
        "See https://example.com/a.b for the details."
    )
    memories = extract_memories(msgs(("user", text)))
    contents = [m.content for m in memories]
    assert contents == [
        "I'm swamped with work.",
        "Dr. Lee said my results look fine, e.g. the blood test was 5.5 which is normal.",
        "From now on answer in French.",
        "See https://example.com/a.b for the details.",
    ]
    assert memories[2].type == "instruction"


def test_short_dependent_sentence_is_merged() -> None:
    [memory] = extract_memories(
        msgs(("user", "Melanie: Last weekend we went camping at the lake. It was so fun!"))
    )
    assert memory.content == "Melanie: Last weekend we went camping at the lake. It was so fun!"
    assert memory.type == "event"


def test_following_sentence_inherits_the_time_of_the_outing() -> None:
    memories = extract_memories(
        msgs(("assistant", "Melanie: We took the kids to Yosemite two weeks ago. We roasted marshmallows."))
    )
    assert [m.event_time for m in memories] == [datetime(2023, 4, 24, tzinfo=UTC)] * 2


def test_short_answer_keeps_the_question_as_context() -> None:
    memories = extract_memories(
        msgs(
            ("user", "Caroline: Have you ever been to Paris?"),
            ("assistant", "Melanie: Yes, twice!"),
        ),
        new_from=1,
    )
    [memory] = memories
    # The question is searchable context and named in the summary, not glued onto the content.
    assert memory.content == "Melanie: Yes, twice!"
    assert "Have you ever been to Paris?" in memory.context
    assert memory.summary == 'Melanie answered "Have you ever been to Paris?": Yes, twice!'
    assert memory.source_message_ids == ("m1",)


def test_reply_carries_the_partner_turn_referents_and_keywords() -> None:
    memories = extract_memories(
        msgs(
            ("user", "Ben: What did you bake for the party?"),
            ("assistant", "Lucia: Mostly a lemon tart, it took me all afternoon. My sister loved it."),
        ),
        new_from=1,
    )
    tart, sister = memories
    assert tart.content == "Lucia: Mostly a lemon tart, it took me all afternoon."
    assert "What did you bake for the party?" in tart.context
    assert "dessert" in tart.context.split()  # the category of a tart, for "what dessert…?"
    # "it" points back to the tart: the sentence before is searchable with the second memory.
    assert "lemon tart" in sister.context


def test_a_sessions_opening_report_carries_the_plan_that_fell_due() -> None:
    """A short statement at a session's opening gets, as context, its speaker's plan of an earlier session
    whose time came in the days before; not someone else's, not a plan still ahead, not a later turn."""
    told = datetime(2024, 9, 2, 20, 0, tzinfo=UTC)
    earlier = [
        InputMessage("p1", "assistant", "Arjun: Also I signed up for a half marathon on 20 October.", told),
        InputMessage("p2", "assistant", "Arjun: And the wedding is on 8 March next year.", told),
        InputMessage("p3", "user", "Tess: Shearing starts on 21 October.", told),
    ]
    start = datetime(2024, 10, 27, 20, 0, tzinfo=UTC)
    session = [
        InputMessage("m0", "user", "Tess: Well?? How did it go", start),
        InputMessage("m1", "assistant", "Arjun: Done, last Sunday! 1:52:40.", start),
    ]
    report = next(m for m in extract_memories(session, earlier=earlier) if "Done" in m.content)
    assert "half marathon" in report.context
    assert "wedding" not in report.context and "Shearing" not in report.context
    # Without the earlier sessions (a window that does not open its session), nothing is carried.
    alone = next(m for m in extract_memories(session) if "Done" in m.content)
    assert "half marathon" not in alone.context
    # Past the session's opening turns, a short statement reports on nothing carried over.
    later = [
        InputMessage(f"x{i}", "user", f"Tess: The lambs are fine, batch {i} is tagged.", start)
        for i in range(8)
    ]
    late = next(m for m in extract_memories([*later, *session[1:]], earlier=earlier) if "Done" in m.content)
    assert "half marathon" not in late.context


def test_irregular_verbs_are_indexed_in_their_base_form() -> None:
    memory = one("Yesterday I ran my first half marathon.")
    assert memory is not None
    assert memory.summary == "User ran their first half marathon (7 May 2023)"
    assert {"run", "race"} <= set(memory.context.split())


def test_questions_that_carry_plans_are_kept_bare_ones_dropped() -> None:
    kept = extract_memories(
        msgs(
            ("user", "Ana: Work is busy."),
            ("assistant", "Raj: Why the airport hotel? Couldn't we stay in town?"),
        ),
        new_from=1,
    )
    assert [m.summary for m in kept] == ["Raj asked: Couldn't Raj stay in town?"] or len(kept) >= 1
    assert extract_memories(msgs(("user", "Ana: Hi."), ("assistant", "Raj: How are you?")), new_from=1) == []


def test_context_messages_yield_nothing() -> None:
    window = msgs(("user", "I moved to Lisbon."), ("user", "I work as a nurse."))
    memories = extract_memories(window, new_from=1)
    assert [m.content for m in memories] == ["I work as a nurse."]


def test_image_caption_is_kept() -> None:
    [memory] = extract_memories(
        msgs(("assistant", "Melanie: Look at this! [image: a photo of a painting of a sunset over a lake]"))
    )
    assert memory.summary == "Melanie shared a photo of a painting of a sunset over a lake"
    assert "[image: a photo of a painting of a sunset over a lake]" in memory.content


def test_did_you_know_is_a_statement() -> None:
    memory = one("Did you know I moved to Boston in 2019?")
    assert memory is not None and memory.topic_key == "user.home_city"


def test_limits_on_summary_and_content() -> None:
    long_sentence = "I visited " + ", ".join(f"the museum number {i}" for i in range(400)) + " in Rome."
    [memory] = extract_memories(msgs(("user", long_sentence)))
    assert len(memory.summary) <= 200
    assert len(memory.content) <= 2000


def test_deterministic_and_duplicate_free() -> None:
    window = msgs(
        ("user", "Caroline: I went to a support group yesterday. I went to a support group yesterday."),
        ("assistant", "Melanie: I ran a charity race last Saturday."),
    )
    first = extract_memories(window)
    assert first == extract_memories(window)
    assert len(first) == 2


async def test_default_extractor_is_async() -> None:
    memories = await DefaultExtractor().extract(
        msgs(("user", "Hi!"), ("user", "I moved to Lisbon.")), new_from=0
    )
    assert [m.topic_key for m in memories] == ["user.home_city"]


def test_classify_one_never_drops() -> None:
    memory = classify_one("Thanks!", role="user", timestamp=TS)
    assert memory.type == "fact"
    assert memory.content == "Thanks!"
    assert classify_one("What's the capital of France?", role="user", timestamp=TS).type == "fact"
    assert classify_one("Never use emojis.", role="user", timestamp=TS).type == "instruction"


def test_content_hash_normalises() -> None:
    assert content_hash("I moved to  Lisbon.") == content_hash("i moved to lisbon")
    assert content_hash("I moved to Lisbon!!") == content_hash("I MOVED TO LISBON")
    assert content_hash("I moved to Lisbon") != content_hash("I moved to Porto")
    assert len(content_hash("x")) == 64


def test_a_question_about_the_other_person_is_the_context_of_its_answer() -> None:
    [memory] = extract_memories(
        msgs(
            ("user", "Tom: Work is busy."),
            ("assistant", "Priya: Are you still at the school in Stockport?"),
            ("user", "Tom: Yep, still there."),
        ),
        new_from=1,
    )
    assert memory.summary == 'Tom answered "Are you still at the school in Stockport?": Yep, still there.'
    assert "school in Stockport" in memory.context


def test_a_question_that_tells_something_of_the_asker_is_kept() -> None:
    [memory] = extract_memories(msgs(("user", "Is it weird that I'm still using an iPhone 8?")))
    assert memory.type == "fact" and "iPhone 8" in memory.summary


def test_dates_each_sentence_on_its_own() -> None:
    [memory] = extract_memories(
        msgs(("user", "Elena: I saw the surgeon on Thursday. They're going to replace my knee."))
    )
    assert memory.event_time == datetime(2023, 5, 4, tzinfo=UTC)


def test_ordinal_words_and_bookings() -> None:
    memory = one("The surgery is booked for the sixth of December.")
    assert memory is not None and memory.event_time == datetime(2023, 12, 6, tzinfo=UTC)
    memory = one("I signed up for the Manchester Half in October.")
    assert memory is not None and memory.event_time == datetime(2023, 10, 1, tzinfo=UTC)
