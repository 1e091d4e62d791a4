"""What is legal offered as picks on a seat's page, over real HTTP: a standard game's
retreats and builds, a Mobtown II weekend's Don placement; and Mobtown II's subway and Don
orders sent through the page, stored and adjudicated as a mail's are."""

from __future__ import annotations

import html
import re

import pytest

from mobadj.judge import Judge, Store, WebPlay
from mobadj.judge.config import config_from_data
from mobadj.web.demo import Table
from mobadj.web.pages import Site

from .helpers import PageServer, Visitor


class World:
    def __init__(self, path) -> None:
        self.config = config_from_data({"judge": {
            "name": "Picks Judge", "address": "judge@test.org", "data_dir": str(path)}})
        self.store = Store(self.config.db_path)
        self.judge = Judge(self.store, self.config, kdf_n=2**10)
        self.play = WebPlay(self.judge)
        self.readonly = Store(self.config.db_path, readonly=True)
        self.site = Site(self.readonly, "Picks Judge")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    w = World(tmp_path_factory.mktemp("play-choices"))
    yield w
    w.readonly.close()
    w.store.close()


@pytest.fixture(scope="module")
def srv(world):
    with PageServer(world.site, play=world.play) as s:
        yield s


def picks(page: str) -> dict[str, list[str]]:
    """The picks form's selects: name -> the order lines offered."""
    form = re.search(r'<form[^>]*class="picks-form".*?</form>', page, re.S)
    if form is None:
        return {}
    return {name: [html.unescape(v) for v in re.findall(r'<option value="([^"]*)"', body)
                   if v]
            for name, body in re.findall(r'<select id="[^"]*" name="([^"]*)">(.*?)</select>',
                                         form.group(0), re.S)}


def seat(srv, t: Table, power: str, client: str) -> Visitor:
    v = Visitor(srv.url, client)
    assert v.sign_in(t.name, power, t.passwords[power]).status == 303
    return v


def test_a_standard_retreat_and_builds_are_offered_and_sent(world, srv):
    t = Table(world.judge, "picks", "standard")
    france = seat(srv, t, "FRANCE", "10.1.0.1")
    assert picks(france.get("/g/picks/play").text) == {}  # a movement phase: the box only
    t.say("FRANCE", "A Mar - Bur\nA Par - Gas\nF Bre - Mao")
    t.say("GERMANY", "A Mun - Ruh\nA Ber - Mun")
    t.process()
    t.say("GERMANY", "A Ruh - Bur\nA Mun S A Ruh - Bur")
    t.say("FRANCE", "A Gas - Spa\nF Mao - Por\nA Bur H")
    t.process()
    assert t.game.phase == "F1901R"
    offered = picks(france.get("/g/picks/play").text)
    assert list(offered) == ["pick_0"]
    assert set(offered["pick_0"]) == {"A BUR - PAR", "A BUR - PIC", "A BUR - GAS",
                                      "A BUR - MAR", "A BUR - BEL", "A BUR disband"}
    # Germany has nothing to retreat: no picks, nothing due
    assert picks(seat(srv, t, "GERMANY", "10.1.0.2").get("/g/picks/play").text) == {}
    answer = france.act("picks", do="picks", pick_0="A BUR - PIC", ready="1")
    assert answer.status == 303
    # stored as the box's (or a mail's) would be; READY ends the phase: France retreated
    assert t.game.phase == "W1901A"
    assert "A PIC" in t.game.started_state["position"]["units"]["FRANCE"]
    offered = picks(france.get("/g/picks/play").text)
    assert list(offered) == ["pick_0", "pick_1"]  # Spa and Por: two builds
    homes = {"Build A BRE", "Build F BRE", "Build A MAR", "Build F MAR", "Build A PAR"}
    assert set(offered["pick_0"]) == {"WAIVE"} | homes == set(offered["pick_1"])
    page = france.get("/g/picks/play").text
    assert "waive (build nothing)" in page and "fleet in BRE" in page
    france.act("picks", do="picks", pick_0="Build F BRE", pick_1="WAIVE")
    stored = world.store.orders("picks", "W1901A")["FRANCE"]
    assert "BUILD F BRE" in stored.upper() and "WAIVE" in stored.upper()
    assert "Orders for" in france.get("/g/picks/play").text  # the judge's answer shown
    # an empty pick sends nothing
    before = world.store.orders("picks", "W1901A")["FRANCE"]
    assert "Nothing to send" in france.act("picks", do="picks").text
    assert world.store.orders("picks", "W1901A")["FRANCE"] == before


DONS = {"capone": "DAN", "babyface": "DtB", "diamond": "Brk", "lepke": "Que",
        "luciano": "5th", "murderinc": "Man"}


def test_mobtown_don_placement_is_offered_and_subway_and_don_orders_go_as_by_mail(world, srv):
    # two games on one seed: the same orders, one by the pages and one by mail
    web, by_mail = Table(world.judge, "mobweb", "mobtown2"), Table(world.judge, "mobmail",
                                                                   "mobtown2")
    baby = seat(srv, web, "babyface", "10.1.0.3")
    page = baby.get("/g/mobweb/play").text
    offered = picks(page)
    assert offered == {"pick_0": ["Don starts in DtB", "Don starts in Sun", "Don starts in Wal"]}
    assert "Your Don starts in" in page
    baby.act("mobweb", do="picks", pick_0="Don starts in DtB", ready="1")
    by_mail.say("babyface", "Don starts in DtB\nREADY")
    for t in (web, by_mail):
        for mob, home in DONS.items():
            if mob != "babyface":
                t.say(mob, f"Don starts in {home}\nREADY")
    assert web.game.phase == by_mail.game.phase == "1919-07-W1-M"
    assert picks(baby.get("/g/mobweb/play").text) == {}  # a movement: the box only
    # a subway move and the Don travelling with his Gang, through the page's orders box
    orders = "G(Sun)-U-Pla\nG+D(DtB)-P22"
    checked = baby.act("mobweb", do="check", orders=orders).text
    assert "Checked, nothing stored" in checked and "succeeds" in checked
    assert baby.act("mobweb", do="orders", orders=orders).status == 303
    by_mail.say("babyface", orders)
    assert (world.store.orders("mobweb", "1919-07-W1-M")["babyface"]
            == world.store.orders("mobmail", "1919-07-W1-M")["babyface"])
    assert "Orders for" in baby.get("/g/mobweb/play").text
    for t in (web, by_mail):
        t.process()
    after = [t.game.started_state["position"] for t in (web, by_mail)]
    assert after[0] == after[1]
    units = after[0]["units"]["babyface"]
    assert "G Pla" in units and "G P22" in units and "D P22" in units
    report = [r for r in world.store.results("mobweb") if r["phase"] == "1919-07-W1-M"]
    assert report and "Sun - U - Pla" in str(report[0])
