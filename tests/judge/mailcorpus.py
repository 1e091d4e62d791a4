"""A seeded generator of players' mails as people write them: a set of orders (plausible
ones, from the engine, for a power of a real position) wrapped in what people put around
them (greetings, remarks, sign-offs, names, signatures, mobile footers), in a reply to the
judge's last mail top- or bottom-posted under the three quote styles ("On ... wrote:" with
``>``, Outlook's "From:/Sent:" block, a forwarded mail), as plain text, HTML alone, or both.

Each :class:`Sample` knows the raw bytes, the seat, the game's state and the orders meant,
so a test can read the mail as the judge does and count what was lost or misread.
"""

from __future__ import annotations

import html
import quopri
import random
from dataclasses import dataclass
from typing import Any

from mobadj.engine import adjudicate, topology_for
from mobadj.judge.hosts import host_for

GREETINGS = ["Hi GM,", "Hello all!", "Dear Judge,", "Hey,", "Hi everyone,", "Hello GM:",
             "Bonjour,", "Greetings!"]
INTROS = ["Here are my orders:", "My moves for this turn:", "Orders below.", "OK, here goes:",
          "Here are my orders for this phase.", "Sorry for the late orders!",
          "Hope I got these right:", "My orders, finally:", "Please find my orders below."]
REMARKS = ["Let me know if you want a DMZ in the Channel.", "This is a feint, don't worry.",
           "Regards from Vienna", "I'll be away on Friday, back Monday.",
           "PS: sorry about last turn.", "Good luck everyone!", "See you next turn",
           "Fingers crossed!", "Let's talk about the Balkans later.", "ok",
           "That's all for now.", "Will send press later.", "Hope this works",
           "Have a nice weekend", "Looking forward to the results!",
           "Ready when you are!", "List of my moves is above.", "Help me out here, Russia!",
           "Start of the spring campaign.", "Orders for spring, as promised.",
           "Status: all good", "Good luck, England!", "Thanks again for the game!",
           "I'm moving to war", "Hold the line, everyone!", "Wait for it...",
           "Best of luck", "Watch this space.", "Draw anyone? Just kidding."]
CLOSINGS = ["Thanks", "thanks!", "Cheers,", "Best regards,", "Best,", "Thx", "Cheers",
            "Kind regards,", "Many thanks", "Ciao", "All the best,", "Regards", "Thanks, {name}",
            "Cheers, {name}", "-{name}", "Yours,"]
NAMES = ["Carla", "Dave", "Ann", "Bob Smith", "Jean-Luc", "Yuki", "D.", "Maria Garcia",
         "Tom", "Kim"]
SIGNATURES = ["-- \n{name}\n+44 20 7946 0000", "--\n{name} | Diplomacy Club",
              "__\n{name}\nhttps://example.org", "Sent from my iPhone",
              "Sent from my Galaxy", "Get Outlook for Android", "Sent from Mail for Windows",
              "Sent from Yahoo Mail on Android", "Envoyé de mon iPhone"]
QUOTE_STYLES = ("wrote", "outlook", "forward")
JUDGE = "Mobtown Judge <judge@example.org>"


@dataclass
class Sample:
    """One mail and what it means."""

    raw: bytes
    kind: str
    seat: str
    state: dict[str, Any]
    orders: list[str]  # the orders meant, as the player wrote them
    ready: bool
    shape: str  # how it was wrapped, for failure messages


def _states(kind: str, rng: random.Random, count: int) -> list[dict[str, Any]]:
    """``count`` states of a game of ``kind``: the opening and later movement phases,
    reached by adjudicating the engine's plausible orders."""
    host = host_for(kind)
    state = host.new_state(list(host.seats({})), 1, {})
    game_map = host.game_map
    rules = host.rules_of(state)
    topology = topology_for(game_map)
    pos = rules.position_from_data(state["position"], game_map)
    out = []
    for _ in range(count * 3):
        if pos.phase.is_movement or not out:
            out.append({"position": pos.to_data(), "over": False})
            if len(out) == count:
                break
        orders = []
        for power in rules.due(pos, topology):
            for text in rules.sample_orders(pos, power, topology, rng):
                parsed = rules.parse_orders(text, game_map, power=power)
                orders += [(power, p.order) for p in parsed.orders]
        pos = adjudicate(pos, orders, game_map, rules).position
        if rules.winner(pos, game_map):
            break
    return out


def _styled(order: str, rng: random.Random) -> str:
    """An order as people type it: any case, spaces, a full stop."""
    r = rng.random()
    text = order
    if r < 0.25:
        text = text.lower()
    elif r < 0.35:
        text = text.title()
    if rng.random() < 0.15:
        text = text.replace(" - ", "-")
    if rng.random() < 0.1:
        text += "."
    if rng.random() < 0.1:
        text = "  " + text
    return text


def _signon(game: str, seat: str, rng: random.Random) -> str:
    word = rng.choice(["SIGNON", "signon", "SIGN ON", "Signon", "login"])
    return f"{word} {game} {seat} pw-{seat.lower()}"


def _judge_mail(game: str, seat: str) -> list[str]:
    """The judge's last mail to the player, as the quote carries it."""
    return [f"Orders for {seat}, as the judge reads them:", "  A PAR - BUR", "",
            f"Deadline for {game}: Sat 28 Nov 2026 18:00 GMT (18:00 UTC)",
            "-" * 68, f"{JUDGE}  --  send HELP for the commands"]


def _quote(style: str, game: str, seat: str, rng: random.Random) -> list[str]:
    judge = _judge_mail(game, seat)
    if style == "wrote":
        head = rng.choice(["On Mon, 1 Dec 2026 at 10:00, " + JUDGE + " wrote:",
                           "On 01/12/2026 10:00, Mobtown Judge wrote:",
                           "Am Montag, 1. Dezember 2026 schrieb Mobtown Judge:"])
        return [head, *(f"> {line}" if line else ">" for line in judge)]
    if style == "outlook":
        return ["________________________________", f"From: {JUDGE}",
                "Sent: Monday, 1 December 2026 10:00", "To: player@example.org",
                f"Subject: {game}: orders", "", *judge]
    return ["---------- Forwarded message ---------", f"From: {JUDGE}",
            "Date: Mon, 1 Dec 2026", f"Subject: {game}: orders", "", *judge]


def _lines(game: str, seat: str, orders: list[str], ready: bool,
           rng: random.Random) -> tuple[list[str], str]:
    """The lines of one mail and a word on its shape."""
    shape = []
    body: list[str] = []
    if rng.random() < 0.5:
        body.append(rng.choice(GREETINGS))
        shape.append("greeting")
    body.append(_signon(game, seat, rng))
    if rng.random() < 0.4:
        body.append(rng.choice(INTROS))
        shape.append("intro")
    if rng.random() < 0.3:
        body.append("")
    body += [_styled(o, rng) for o in orders]
    if ready:
        body.append(rng.choice(["READY", "ready", "Ready"]))
    if rng.random() < 0.5:
        body += ["", rng.choice(REMARKS)]
        shape.append("remark")
    name = rng.choice(NAMES)
    r = rng.random()
    if r < 0.3:
        body += ["", rng.choice(CLOSINGS).format(name=name), name]
        shape.append("sign-off")
    elif r < 0.45:
        body += ["", name]
        shape.append("name")
    elif r < 0.55:
        body += ["", rng.choice(CLOSINGS).format(name=name)]
        shape.append("closing")
    if rng.random() < 0.35:
        body += ["", rng.choice(SIGNATURES).format(name=name)]
        shape.append("signature")
    r = rng.random()
    if r < 0.35:  # top-posted: the quote under the mail
        style = rng.choice(QUOTE_STYLES)
        body += ["", *_quote(style, game, seat, rng)]
        shape.append(f"top-posted/{style}")
    elif r < 0.5:  # bottom-posted: the quoted original first, the answer below it
        body = [*_quote("wrote", game, seat, rng)[:4], "", *body]
        shape.append("bottom-posted")
    return body, " ".join(shape) or "bare"


def _html(lines: list[str]) -> str:
    """The lines as an HTML mail program sends them (a quote in a blockquote)."""
    out, quote = [], []
    for line in lines:
        if line.startswith(">"):
            quote.append(html.escape(line.lstrip("> ")))
            continue
        if quote:
            out.append("<blockquote>" + "<br>".join(quote) + "</blockquote>")
            quote = []
        out.append(f"<div>{html.escape(line) or '<br>'}</div>")
    if quote:
        out.append("<blockquote>" + "<br>".join(quote) + "</blockquote>")
    return "<html><body>" + "".join(out) + "</body></html>"


def _part(ctype: str, text: str, qp: bool) -> str:
    """A text part as mail programs write it: 8bit UTF-8 or quoted-printable."""
    if qp:
        body = quopri.encodestring(text.encode()).decode("ascii")
        return (f"Content-Type: {ctype}; charset=utf-8\n"
                f"Content-Transfer-Encoding: quoted-printable\n\n{body}")
    return f"Content-Type: {ctype}; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n{text}"


def _mail(sender: str, subject: str, lines: list[str], form: str, number: int) -> bytes:
    """The raw mail (written out by hand: the email package's writer is slow)."""
    head = (f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\n"
            f"Message-ID: <corpus{number}@example.org>\nMIME-Version: 1.0\n")
    text = "\n".join(lines) + "\n"
    qp = number % 3 == 0
    if form == "plain":
        return (head + _part("text/plain", text, qp)).encode()
    if form == "html":
        return (head + _part("text/html", _html(lines), qp)).encode()
    b = f"==alt{number}=="
    return (head + f'Content-Type: multipart/alternative; boundary="{b}"\n\n'
            f"--{b}\n{_part('text/plain', text, qp)}\n--{b}\n"
            f"{_part('text/html', _html(lines), qp)}\n--{b}--\n").encode()


def corpus(seed: int, mails: int, sets: int) -> list[Sample]:
    """``mails`` mails, each one of ``sets`` order sets (half standard, half Mobtown II)
    wrapped at random in a human mail's shape."""
    rng = random.Random(seed)
    order_sets = []
    for kind in ("standard", "mobtown2"):
        host = host_for(kind)
        rules = host.rules_of({})
        topology = topology_for(host.game_map)
        for state in _states(kind, rng, 6):
            pos = rules.position_from_data(state["position"], host.game_map)
            for power in rules.due(pos, topology):
                for _ in range(max(1, sets // 60)):
                    orders = rules.sample_orders(pos, power, topology, rng)
                    if orders:
                        order_sets.append((kind, power, state, orders))
    out = []
    for number in range(mails):
        kind, seat, state, orders = order_sets[number % len(order_sets)]
        ready = rng.random() < 0.3
        lines, shape = _lines("g1", seat, orders, ready, rng)
        form = rng.choice(["plain", "plain", "html", "both"])
        raw = _mail(f"{seat.lower()}@example.org", "Re: g1: orders", lines, form, number)
        out.append(Sample(raw, kind, seat, state, orders, ready, f"{form}: {shape}"))
    return out
