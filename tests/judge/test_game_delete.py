"""A deleted game leaves nothing behind: a new game, even of the same name, is drawn as itself
by pages that showed the old one, and no id the old game had is given again (a sent mail's
Message-ID is made from its outbox id, a result's pictures are kept under its id)."""

from __future__ import annotations

from mobadj.judge import deletion
from mobadj.web.pages import Site

from .conftest import Table
from .helpers import mail


def play_spring(judge, orders: str) -> Table:
    t = Table(judge, "standard")
    judge.handle_mail(mail(t.emails["ENGLAND"], t.signon("ENGLAND") + orders))
    judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nPROCESS"))
    return t


def test_the_pages_of_a_game_made_after_a_deletion_are_its_own(judge, clock):
    play_spring(judge, "F LON - NTH\nA LVP - YOR\n")
    site = Site(judge.store, clock=clock)  # one running `mobadj web`, its caches warm
    old = site.story(judge.store.game("g1")).steps[-2]
    assert site.map_svg("g1", old.id) and "LON - NTH" in site.game_html("g1", old.id)
    judge.handle_mail(mail("gm@test.org", "GM g1 gm-secret\nENDGAME"))
    with judge.store.transaction():
        judge.store.mark_all_sent(clock())
    sent = {m.id for m in judge.store.all_mail("g1")}
    deletion.delete_game(judge.store, "g1", clock())
    play_spring(judge, "F EDI - NWG\n")  # a new g1, with the next ids SQLite would give
    new = site.story(judge.store.game("g1")).steps[-2]
    assert new.result_id > old.result_id
    assert not sent & {m.id for m in judge.store.all_mail()}
    fresh = Site(judge.store, clock=clock)
    assert site.map_svg("g1", new.id) == fresh.map_svg("g1", new.id)
    assert site.game_html("g1", new.id) == fresh.game_html("g1", new.id)
    assert "EDI - NWG" in site.game_html("g1", new.id)
    assert "LON - NTH" not in site.game_html("g1", new.id)
