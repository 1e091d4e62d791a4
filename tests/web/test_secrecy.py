"""Nothing secret on any page, at any moment: a Diplomacy game and a card game are played by
mail through the judge, and after every mail every page is read back from the store (the
pages the server would serve at that moment) and checked:

* no page lists an order of a phase not yet adjudicated, nor draws one on a map;
* press reaches a page only when sent to everyone (a grey one without its sender);
* a card game shows no event meant for one player, no card in a hand, no card of the pile,
  and not the seed before the game is over (then it does, with its check);
* no page holds an email address or a password.
"""

from __future__ import annotations

import html
import random
import re

import pytest

from mobadj.judge.config import config_from_data
from mobadj.judge.core import Judge
from mobadj.judge.store import Store
from mobadj.web.cardview import replay
from mobadj.web.demo import Table, board_orders, play_cards
from mobadj.web.pages import Site

from .helpers import order_spans

SECRET = "SECRET-PRESS-5518 meet me in Burgundy"
PUBLIC = "PUBLIC-PRESS-7731 peace in our time"
GREY = "GREY-PRESS-9012 who said that"


@pytest.fixture
def judge_and_site(tmp_path):
    cfg = config_from_data({"judge": {"address": "judge@test.org", "data_dir": str(tmp_path)}})
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=lambda: 1_800_000_000.0, kdf_n=2**10)
    ro = Store(cfg.db_path, readonly=True)
    yield judge, Site(ro, "Secrecy Judge")
    ro.close()
    store.close()


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def board_pages(site: Site, name: str) -> dict[str, tuple[str, str | None]]:
    """step id -> (page, map) for every step, and the index."""
    out = {sid: (site.game_html(name, sid), site.map_svg(name, sid))
           for sid in site.steps(name)}
    out["(index)"] = (site.index_html(), None)
    out["(latest)"] = (site.game_html(name), None)
    return out


def check_board(judge: Judge, site: Site, t: Table, press_sent: set[str]) -> None:
    store = judge.store
    game = store.game(t.name)
    adjudicated = {r["phase"]: r for r in store.results(t.name)}
    pending = store.orders(t.name, game.phase)  # given for the current phase: secret
    pages = board_pages(site, t.name)
    for sid, (page, svg) in pages.items():
        listed = order_spans(page)
        if sid in adjudicated:
            data = adjudicated[sid]["report"]["data"]
            assert sorted(listed) == sorted(d["order"] for d in data["results"] +
                                            data["defaults"]), sid
        else:
            assert listed == [], f"{sid} lists orders before adjudication"
            plain = text_of(page)
            for text in pending.values():
                for line in text.splitlines():
                    assert f" {line} " not in f" {plain} " or sid in adjudicated, line
        if sid == game.phase:
            assert svg is not None
            assert 'class="move-' not in svg and 'class="support-' not in svg
        assert "@" not in page and "pw-" not in page and "gm-secret" not in page
        assert SECRET not in page
    everything = "".join(p for p, _ in pages.values())
    for marker in press_sent:
        assert marker in everything
    if GREY in press_sent:
        block = everything.split(GREY)[0].rsplit('<blockquote class="press">', 1)[1]
        assert "Anonymous (grey press)" in block and "RUSSIA" not in block


def test_a_diplomacy_game_shows_orders_only_once_adjudicated(judge_and_site):
    judge, site = judge_and_site
    t = Table(judge, "open", "standard", press="grey")
    rng = random.Random(11)
    sent: set[str] = set()
    check_board(judge, site, t, sent)
    t.say("FRANCE", f"PRESS TO GERMANY\n{SECRET}\nENDPRESS")
    t.say("ENGLAND", f"PRESS TO ALL\n{PUBLIC}\nENDPRESS")
    sent.add(PUBLIC)
    check_board(judge, site, t, sent)
    moments = 0
    for phase in range(5):
        for power in t.due():
            text = board_orders(t.kind, t.game.state, power, rng)
            if text:
                t.say(power, text)
                check_board(judge, site, t, sent)
                moments += 1
        if phase == 2:
            t.say("RUSSIA", f"PRESS TO ALL GREY\n{GREY}\nENDPRESS")
            sent.add(GREY)
        t.process()
        check_board(judge, site, t, sent)
    assert len(judge.store.results("open")) == 5 and moments > 20


def check_cards(site: Site, t: Table, seed: int, final: bool = False) -> None:
    game = t.game
    state = game.state
    played = replay(t.kind, state)
    over = played.is_over()
    steps = site.steps(t.name)
    shown = [site.index_html(), site.game_html(t.name)]
    shown += [site.game_html(t.name, sid) for sid in (steps if final else steps[-3:])]
    pages = [text_of(p) for p in shown]
    public = {e.text for e in played.events if e.visible_to is None}
    secret_events = {e.text for e in played.events if e.visible_to is not None} - public
    spectator = {ln.strip() for ln in played.render(None).splitlines()}
    hands = {ln.strip() for p in range(played.players) for ln in played.render(p).splitlines()
             if len(ln.strip()) > 6 and "view of" not in ln} - spectator
    deck = played.deck.cards
    in_pile = {deck[c].name for c in played.pile}
    elsewhere = {card.name for c, card in deck.items() if c not in played.pile}
    pile_names = in_pile - elsewhere
    for page in pages[:2]:  # the table now (past moves' tables showed what was public then)
        for line in hands:
            assert line not in page, f"a hand's card on a page: {line!r}"
    for page, raw in zip(pages, shown, strict=True):
        for event in secret_events:
            assert event not in page, f"a private event on a page: {event!r}"
        for name in pile_names:
            assert not re.search(rf"\b{re.escape(name)}\b", page), f"a pile card: {name}"
        assert "@" not in raw and "pw-" not in raw
        if not over:
            assert str(seed) not in page
    current = pages[1]
    assert state["commitment"] in current
    if over:
        assert str(seed) in current and "The seed matches" in current


def test_a_card_game_shows_only_the_observers_view(judge_and_site):
    judge, site = judge_and_site
    t = Table(judge, "deal", "micromob", seats=["P1", "P2", "P3"], seed=987_654_321)
    seed = t.game.state["seed"]
    assert len(str(seed)) >= 8
    rng = random.Random(4)
    moments = []

    def each(table: Table) -> None:
        check_cards(site, table, seed)
        moments.append(1)

    check_cards(site, t, seed)
    play_cards(t, rng, each=each)
    assert t.game.status == "ended" and len(moments) > 30
    check_cards(site, t, seed, final=True)
