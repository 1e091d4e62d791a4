"""A seeded corpus of 2,400 players' mails built from real-world shapes (mailcorpus.py):
plausible order sets of both maps wrapped in greetings, remarks, sign-offs, names,
signatures and quoted replies, as plain text, HTML alone or both.  Each is read as the judge
reads a mail (mailparse, the command reader, the game's order check); not one order may be
lost or credited wrongly, and no line of prose may get an error.  The figures are in
docs/orders.md ("Remarks around the orders")."""

from __future__ import annotations

from collections import Counter

from mobadj.judge.commands import parse_body
from mobadj.judge.hosts import host_for
from mobadj.judge.mailparse import parse_mail

from .mailcorpus import corpus

SEED, MAILS, SETS = 2028, 2400, 300


def _canonical(kind: str, seat: str, state: dict, text: str) -> str:
    host = host_for(kind)
    parsed = host.rules_of(state).parse_orders(text, host.game_map, power=seat)
    assert len(parsed.orders) == 1 and not parsed.errors, text
    return str(parsed.orders[0].order)


def test_a_corpus_of_human_mails_loses_and_misreads_nothing():
    samples = corpus(SEED, MAILS, SETS)
    assert len(samples) == MAILS and len({s.raw for s in samples}) == MAILS
    figures: Counter[str] = Counter()
    problems = []
    for number, s in enumerate(samples):
        inc = parse_mail(s.raw)
        parsed = parse_body(inc.body)
        signon = parsed.first("signon")
        ready = parsed.first("ready") is not None
        check = host_for(s.kind).check(s.state, s.seat, parsed.order_text)
        meant = Counter(_canonical(s.kind, s.seat, s.state, o) for o in s.orders)
        read = Counter(check.accepted)
        lost, wrong = meant - read, read - meant
        figures["orders"] += sum(meant.values())
        figures["lost"] += sum(lost.values())
        figures["wrong"] += sum(wrong.values())
        figures["errors"] += len(check.errors) + len(parsed.errors)
        figures["signon missed"] += signon is None or signon.args["power"] != s.seat
        figures["ready misread"] += ready != s.ready
        others = [c.text for c in parsed.commands if c.name not in ("signon", "ready")]
        figures["misread as commands"] += len(others)
        if (lost or wrong or check.errors or parsed.errors or others or signon is None
                or ready != s.ready):
            problems.append(f"mail {number} ({s.shape}): lost {dict(lost)}, wrong "
                            f"{dict(wrong)}, errors {check.errors + parsed.errors}, "
                            f"commands {others}")
    print(f"\nmail corpus: {MAILS} mails, {figures['orders']} orders: {figures['lost']} lost, "
          f"{figures['wrong']} credited wrongly, {figures['errors']} errors, "
          f"{figures['misread as commands']} lines misread as commands")
    assert figures["orders"] > 2 * MAILS
    assert not problems, "\n".join(problems[:20])
