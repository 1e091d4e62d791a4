"""The game pages of every card game keep its secrets: random games by mail through the
judge (mail_table.py, a real SQLite store), and after every mail the pages a spectator would
be served then (the index, the game's page, its latest move and the table waiting) are read
back from the store and checked as a mail to nobody is (terminal_table.leaks with no seat):
no card in a hand not shown at the table (micro mob's hands are public unless secret), no
card of a pile, no face-down offer or sealed bet, no secret role, no private event, and
neither seed nor salt until the game is over.  Iron Triangle's offers show their backs,
as at the table, and only once every offer is in."""

from __future__ import annotations

import html
import re

import pytest
from mail_table import MailTable, new_judge
from terminal_table import leaks

from mobadj.cards.registry import game_class
from mobadj.judge.core import Judge
from mobadj.judge.store import Mail, Store
from mobadj.web.cardtable import card_table
from mobadj.web.cardview import replay
from mobadj.web.pages import Site

GAMES = {  # (game, players, options) per table; two seeded games each
    "micromob": ("micromob", 3, None),
    "micromob-secret": ("micromob", 3, {"hands": "secret"}),
    "miceheist": ("miceheist", 3, None),
    "irontriangle": ("irontriangle", 4, None),
    "microcity": ("microcity", 2, {"mode": "competitive"}),
}


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


class PageTable(MailTable):
    """A game by mail whose pages are read and checked after every mail."""

    def __init__(self, judge: Judge, site: Site, game: str, players: int, number: int,
                 options: dict | None, name: str) -> None:
        self.site, self.pages = site, 0
        self.offers_seen = 0
        super().__init__(judge, game, players, number, options, mischief=0.05, name=name)

    def check(self, out: list[Mail], typed: str, sender: str | None = None) -> None:
        super().check(out, typed, sender)
        self.check_pages()

    def check_pages(self) -> None:
        state = self.state
        game = replay(self.host.kind, state)
        steps = self.site.steps(self.name)
        shown = [self.site.index_html(), self.site.game_html(self.name)]
        shown += [self.site.game_html(self.name, sid) for sid in steps[-2:]]
        secret = (str(state["seed"]), str(state.get("salt") or "-"))
        # the public log names what was once on the table (a card since shuffled back into
        # the pile, the draft pool of a game with secret hands): it is everyone's
        public = sorted({e.text for e in game.events if e.visible(None)}, key=len, reverse=True)
        for raw in shown:
            assert raw is not None
            page = text_of(raw)
            for text in public:
                page = page.replace(text, " ")
            if game.is_over():
                found = [t for t in leaks(page, game, None, game.events)
                         if " " in t and len(t) >= 12]  # the others' private events
            else:
                assert not any(s in raw for s in secret), "seed or salt on a page"
                found = leaks(page, game, None, game.events)
            assert not found, f"a page shows {found}"
            assert "@test.org" not in raw and "pw-" not in raw  # no address, no password
            self.pages += 1
        if self.host.kind == "irontriangle":
            self.check_offers(game, text_of(shown[1]))

    def check_offers(self, game, page: str) -> None:
        """An offer lies face down: its back shows once all are in, its card never."""
        seats = game.view(None)["seats"]
        for p, card in game.offers.items():
            offer = seats[p]["offer"]
            assert offer["face_down"] and "card" not in offer
            if game.phase == "offer":
                assert "back" not in offer
            else:
                back = game.deck.cards[card].back_text
                assert offer["back"] == back and f"face down; back {back}" in page
            self.offers_seen += 1


@pytest.mark.parametrize("table", sorted(GAMES))
def test_card_pages_leak_nothing(table: str, tmp_path) -> None:
    game, players, options = GAMES[table]
    judge = new_judge(tmp_path)
    reader = Store(tmp_path / "judge.sqlite", readonly=True)
    site = Site(reader, "Card Judge")
    pages = 0
    for k in range(2):
        t = PageTable(judge, site, game, players, k, options, name=f"{table}{k}")
        t.play()
        assert t.host.is_over(t.state)
        final = text_of(site.game_html(t.name) or "")
        assert str(t.state["seed"]) in final and "The seed matches" in final
        if game == "irontriangle":
            assert t.offers_seen > 0
        pages += t.pages
    reader.close()
    judge.store.close()
    assert pages > 200


def _one_offer_in():
    """A four-seat Iron Triangle game at its offers, one seat's offer in: that seat."""
    game = game_class("irontriangle").new(4, 7)
    while game.phase != "offer":
        p = game.to_act()[0]
        game.apply(p, game.legal_actions(p)[0])
    p = game.to_act()[0]
    game.apply(p, game.legal_actions(p)[0])
    return game, p


def test_an_offer_half_made_shows_no_back_on_the_table() -> None:
    """At the terminal the offers come in one by one (by mail the judge holds them until
    all are in): the spectator's table shows who has offered, never what, nor its back."""
    game, p = _one_offer_in()
    card = game.deck.cards[game.offers[p]]
    page = text_of(str(card_table("irontriangle", game.view(None))))
    shown = " ".join(page.split())
    assert f"P{p + 1} 10 0 0" in shown and "face down" in shown
    assert card.back_text not in shown.replace("Back " + game.deck.cards[game.job].back_text, "")
    assert card.name not in shown and card.name not in game.render(None)


def test_the_table_says_who_is_still_choosing_as_the_terminal_does() -> None:
    """A seat that has not offered yet reads "(choosing)" on the page, not a blank cell a
    reader could take for "no offer"; the terminal's table says the same."""
    game, _ = _one_offer_in()
    waiting = len(game.to_act())
    assert waiting >= 1
    page = text_of(str(card_table("irontriangle", game.view(None))))
    assert page.count("(choosing)") == waiting == game.render(None).count("(choosing)")
