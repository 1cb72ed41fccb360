"""Throughput of the default extractor on realistic two-friend chat (pure Python, no database).

Run: .venv/bin/python -m bench extractor-pure [--messages 20000] [--window 24] [--runs 5] [--show]
Prints messages/s (median of runs) and memories per message. ``--show`` prints
what one session's worth of turns becomes, to eyeball extraction quality.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from datetime import UTC, datetime, timedelta

from app.extraction import DefaultExtractor, InputMessage
from bench import harness

TURNS: list[tuple[str, str]] = [
    ("Caroline", "Hey Mel! Good to see you! How have you been?"),
    ("Melanie", "Hey Caroline! I'm swamped with the kids & work. What's up with you? Anything new?"),
    ("Caroline", "I went to a LGBTQ support group yesterday and it was so powerful."),
    (
        "Melanie",
        "Wow, that's cool, Caroline! What happened that was so awesome? Did you hear any inspiring stories?",
    ),
    (
        "Caroline",
        "The transgender stories were so inspiring! I was so happy and thankful for all the support.",
    ),
    ("Melanie", "Wow, love that painting! So cool you found such a helpful group. What's it done for you?"),
    ("Caroline", "The support group has made me feel accepted and given me courage to embrace myself."),
    ("Melanie", "That's really cool. You've got guts. What now?"),
    ("Caroline", "Gonna continue my edu and check out career options, which is pretty exciting!"),
    ("Melanie", "Wow, Caroline! What kinda jobs are you thinkin' of? Anything that stands out?"),
    (
        "Caroline",
        "I'm keen on counseling or working in mental health - I'd love to support those with similar issues.",
    ),
    (
        "Melanie",
        "You'd be a great counselor! Your empathy and understanding will really help the people you work with. "
        "By the way, take a look at this. [image: a photo of a painting of a sunset over a lake]",
    ),
    ("Caroline", "Thanks, Melanie! That's really sweet. Is this your own painting?"),
    ("Melanie", "Yeah, I painted that lake sunrise last year! It's special to me."),
    (
        "Caroline",
        "Wow, Melanie! The colors really blend nicely. Painting looks like a great outlet for expressing "
        "yourself.",
    ),
    (
        "Melanie",
        "Thanks, Caroline! Painting's a fun way to express my feelings and get creative. It's a great way to "
        "relax after a long day.",
    ),
    (
        "Caroline",
        "Totally agree, Mel. Relaxing and expressing ourselves is key. Well, I'm off to go do some research.",
    ),
    (
        "Melanie",
        "Yep, Caroline. Taking care of ourselves is vital. I'm off to go swimming with the kids. Talk to you "
        "soon!",
    ),
    ("Caroline", "Hey Melanie! Just wanted to say hi!"),
    ("Melanie", "Hey Caroline! Good to talk to you again. What's up? Anything new since last time?"),
    (
        "Caroline",
        "Hey Mel! A lot's happened since we last chatted - I just joined a new LGBTQ activist group last "
        "Tues. I'm meeting so many cool people who are as passionate as I am about rights and community support.",
    ),
    (
        "Melanie",
        "That's great, Caroline! Glad you found a group where you can be yourself. What do you guys do?",
    ),
    ("Caroline", "We meet every week and plan events. Next month we're organizing a pride parade in Boston!"),
    ("Melanie", "Awesome! I ran a charity race for mental health last Saturday – it was really rewarding."),
    ("Caroline", "That's awesome, Mel! What did you take away from it?"),
    (
        "Melanie",
        "It made me realize self-care is important. I'm carving out some me-time each day - running, "
        "reading, or playing my violin.",
    ),
    ("Caroline", "Did you know I moved to Boston in 2019? My favourite colour is purple, by the way."),
    (
        "Melanie",
        "No way! My husband Tom and I took the kids camping at Yosemite two weeks ago. We roasted "
        "marshmallows and hiked to the waterfall.",
    ),
    ("Caroline", "Sounds amazing! I need to renew my passport by June 3 before the trip to Sweden."),
    ("Melanie", "Good luck! Oh, I have to pick up Oliver from school at 3pm tomorrow, so I should go. Bye!"),
    ("Caroline", "Bye Mel! Have fun!"),
    ("Melanie", "Haha thanks 😊"),
]


def build_messages(total: int) -> list[InputMessage]:
    start = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    out: list[InputMessage] = []
    for i in range(total):
        speaker, text = TURNS[i % len(TURNS)]
        session = i // len(TURNS)
        role = "user" if speaker == "Caroline" else "assistant"
        ts = start + timedelta(days=session * 3, minutes=i % len(TURNS))
        # Vary the text a little so no cache could ever help.
        out.append(InputMessage(f"m{i}", role, f"{speaker}: {text}", ts))
    return out


async def run_once(messages: list[InputMessage], window: int, context: int) -> tuple[float, int]:
    extractor = DefaultExtractor()
    produced = 0
    t0 = time.perf_counter()
    for i in range(0, len(messages), window):
        lo = max(0, i - context)
        batch = messages[lo : i + window]
        produced += len(await extractor.extract(batch, new_from=i - lo))
    return time.perf_counter() - t0, produced


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__, database=False)
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--window", type=int, default=24, help="new messages per extraction call")
    parser.add_argument("--context", type=int, default=4, help="earlier messages passed as context")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args(argv)

    if args.show:
        sample = build_messages(len(TURNS))
        for m in asyncio.run(DefaultExtractor().extract(sample)):
            when = m.event_time.date().isoformat() if m.event_time else "-"
            print(f"[{m.type:11}] {m.topic_key or '-':22} {when:10}  {m.summary}")
        return 0

    messages = build_messages(args.messages)
    rates = []
    produced = 0
    for _ in range(args.runs):
        seconds, produced = asyncio.run(run_once(messages, args.window, args.context))
        rates.append(len(messages) / seconds)
    harness.print_table(
        f"Default extractor, {len(messages):,} messages, window {args.window}+{args.context}, {args.runs} runs",
        ["median messages/s", "min", "max", "memories per message", "load average"],
        [
            [
                statistics.median(rates),
                min(rates),
                max(rates),
                produced / len(messages),
                harness.load_average(),
            ]
        ],
    )
    harness.write_json(args.json)
    return 0
