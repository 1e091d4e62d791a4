"""What is legal offered as picks on a seat's page, over real HTTP: a standard game's
retreats and builds, a Mobtown II weekend's Don placement; and Mobtown II's subway and Don
orders sent through the page, stored and adjudicated as a mail's are."""

from __future__ import annotations

import html
import re

from mobadj.judge import Judge, Store, WebPlay
from mobadj.judge.config import config_from_data
from mobadj.web.demo import Table
from mobadj.web.pages import Site

from .helpers import Visitor, world_and_server


class World:
    def __init__(self, path) -> None:
        self.config = config_from_data({"judge": {
            "name": "Picks Judge", "address": "judge@test.org", "data_dir": str(path)}})
        self.store = Store(self.config.db_path)
        self.judge = Judge(self.store, self.config, kdf_n=2**10)
        self.play = WebPlay(self.judge)
        self.readonly = Store(self.config.db_path, readonly=True)
        self.site = Site(self.readonly, "Picks Judge")


world, srv = world_and_server(World, "play-choices")


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
    assert "every pick was left at (choose)" in france.act("picks", do="picks").text
    assert world.store.orders("picks", "W1901A")["FRANCE"] == before
    # with "and READY": READY alone, as from the orders box, and the page says so
    assert france.act("picks", do="picks", ready="1").status == 303
    shown = html.unescape(france.get("/g/picks/play").text)
    assert "Every pick was left at (choose), so no orders were sent" in shown
    assert "READY was sent alone" in shown and "Marked READY" in shown
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


# -- Mobtown II weekends: the gaol, a Don rebuilt, the removals --------------------------------
MOBS = ("capone", "babyface", "diamond", "lepke", "luciano", "murderinc")


def weekend(world, srv, name: str, phase: str, units: dict, centers: dict,
            **extra) -> tuple[Table, dict[str, Visitor]]:
    """A Mobtown II game set at a weekend of its own (the GM's store holding that position),
    every mob signed in on the pages from its own address."""
    t = Table(world.judge, name, "mobtown2")
    state = t.game.started_state
    state["position"] = {"phase": phase, "units": units, "centers": centers,
                         "dislodged": {}, "standoffs": [], "disorder": [], "rebuilt_dons": [],
                         **extra}
    with world.store.transaction():
        world.store.update_game(name, state=state, phase=phase)
    return t, {mob: seat(srv, t, mob, f"10.2.0.{i + 1}") for i, mob in enumerate(MOBS)}


def nothing_of_the_others(world, t: Table, seats: dict[str, Visitor]) -> None:
    """Every mob's own page: no line another mob sent (or was offered to send) shows."""
    phase = t.game.phase
    sent = world.store.orders(t.name, phase)
    pages = {mob: v.get(f"/g/{t.name}/play") for mob, v in seats.items()}
    offered = {mob: picks(page.text) for mob, page in pages.items()}
    for mob, page in pages.items():
        assert page.status == 200 and page.headers["Cache-Control"] == "private, no-store"
        text = html.unescape(page.text)
        for other in MOBS:
            if other == mob:
                continue
            for line in sent.get(other, "").splitlines():
                assert line not in text, (mob, other, line)
            mine = set(sum(offered[mob].values(), [])) - {"WAIVE"}
            for lines in offered[other].values():
                assert not set(lines) & mine, (mob, other)  # its own units, centres, Don
                for line in lines:
                    if line.startswith(("Build D", "G(")):  # never a public word
                        assert line not in text, (mob, other, line)


OPENING = {"capone": ["G Bnx", "G DAN", "G DAS", "D DAN"],
           "babyface": ["G DtB", "G Sun", "G Wal", "D DtB"],
           "diamond": ["G Brk", "G Bro", "G P37", "D Brk"],
           "lepke": ["G P45", "G Pie", "G Que", "D Pie"],
           "luciano": ["G 5th", "G WCP", "G Wch", "D 5th"],
           "murderinc": ["G MaE", "G Man", "G Sho", "D Man"]}
HOMES = {"capone": ["Bnx", "DAN", "DAS"], "babyface": ["DtB", "Sun", "Wal"],
         "diamond": ["Brk", "Bro", "P37"], "lepke": ["P45", "Pie", "Que"],
         "luciano": ["5th", "WCP", "Wch"], "murderinc": ["MaE", "Man", "Sho"]}


def test_a_gang_next_to_mtpd_is_offered_the_gaol_and_no_disbanding(world, srv):
    # Luciano's Gang in Times Square is dislodged from 42nd: it may go to gaol or retreat,
    # never disband while MTPD is open (rule 7)
    units = OPENING | {"luciano": ["G 5th", "G Wch", "D 5th"],
                       "capone": ["G Bnx", "G DAS", "G Tim", "G 42nd", "D DAN"]}
    t, seats = weekend(world, srv, "gaolweb", "1919-07-W2-R", units, HOMES,
                       dislodged={"luciano": [{"unit": "G Tim", "from": "42nd"}]})
    assert t.due() == ["luciano"]
    page = seats["luciano"].get("/g/gaolweb/play").text
    offered = picks(page)
    assert list(offered) == ["pick_0"]
    assert "G(Tim)-MTPD" in offered["pick_0"] and len(offered["pick_0"]) > 1
    assert not [line for line in offered["pick_0"] if "disband" in line.lower()]
    assert "go to gaol (MTPD) for the rest of the game" in html.unescape(page)
    assert all(picks(v.get("/g/gaolweb/play").text) == {}
               for mob, v in seats.items() if mob != "luciano")
    # typed in the box, a disband is refused at once, as by mail
    said = html.unescape(seats["luciano"].act("gaolweb", do="check",
                                              orders="G(Tim) disband").text)
    assert "may not disband while a retreat to MTPD is open (rule 7)" in said
    assert seats["luciano"].act("gaolweb", do="picks", pick_0="G(Tim)-MTPD").status == 303
    nothing_of_the_others(world, t, seats)
    assert "READY" not in world.store.orders("gaolweb", "1919-07-W2-R")["luciano"].upper()
    seats["luciano"].act("gaolweb", do="ready")
    position = t.game.started_state["position"]
    assert t.game.phase != "1919-07-W2-R"
    assert "G MTPD" in position["units"]["luciano"]
    assert "G Tim" not in position["units"]["luciano"]
    nothing_of_the_others(world, t, seats)


def test_a_don_is_rebuilt_and_removals_keep_the_gaol_and_the_first_don(world, srv):
    units = OPENING | {
        # Lepke's Don drowned: Pie is free, and a Gang short: the Don or a Gang
        "lepke": ["G P45", "G Que"],
        # Luciano's Don drowned at full supply: rebuilt, a Gang goes for him (ruling 9)
        "luciano": ["G 5th", "G WCP", "G Wch"],
        # Diamond's Don was rebuilt and one Gang is in gaol: two removals, the Don may be one
        "diamond": ["G Brk", "G Bro", "G MTPD", "D Brk"],
        # Murder Inc.'s first Don costs nothing and is never removed (ruling 9)
        "murderinc": ["G MaE", "G Man", "G Sho", "G Chc", "D Man"]}
    t, seats = weekend(world, srv, "donweb", "1919-07-W2-A", units, HOMES | {
        "diamond": ["Brk", "Bro"]}, rebuilt_dons=["diamond"])
    assert t.due() == ["diamond", "lepke", "luciano", "murderinc"]
    offered = {mob: picks(v.get("/g/donweb/play").text) for mob, v in seats.items()}
    assert offered["capone"] == offered["babyface"] == {}
    assert offered["lepke"] == {
        "pick_0": ["Build D P45", "Build D Pie", "Build D Que"],
        "pick_1": ["WAIVE", "Build G Pie"]}
    assert offered["luciano"] == {
        "pick_0": ["Build D 5th", "Build D WCP", "Build D Wch"],
        "pick_1": ["Remove G 5th", "Remove G WCP", "Remove G Wch"]}
    gangs = ["Remove G Bro", "Remove G Brk", "Remove D Brk"]
    assert {k: sorted(v) for k, v in offered["diamond"].items()} == {
        "pick_0": sorted(gangs), "pick_1": sorted(gangs)}  # never the gaoled Gang
    assert offered["murderinc"] == {"pick_0": ["Remove G Chc", "Remove G MaE", "Remove G Man",
                                               "Remove G Sho"]}  # never the first Don
    page = html.unescape(seats["luciano"].get("/g/donweb/play").text)
    assert "rebuild your Don in WCP" in page and "he needs a centre" in page
    assert "The Gang removed for the new Don" in page
    sent = {"lepke": {"pick_0": "Build D Que", "pick_1": "WAIVE"},
            "luciano": {"pick_0": "Build D WCP", "pick_1": "Remove G Wch"},
            "diamond": {"pick_0": "Remove D Brk", "pick_1": "Remove G Bro"},
            "murderinc": {"pick_0": "Remove G Chc"}}
    for mob, fields in sent.items():
        assert seats[mob].act("donweb", do="picks", **fields).status == 303
        nothing_of_the_others(world, t, seats)
    for mob in sent:
        seats[mob].act("donweb", do="ready")
    assert t.game.phase != "1919-07-W2-A"
    after = t.game.started_state["position"]
    assert sorted(after["units"]["lepke"]) == ["D Que", "G P45", "G Que"]
    assert sorted(after["units"]["luciano"]) == ["D WCP", "G 5th", "G WCP"]
    assert sorted(after["units"]["diamond"]) == ["G Brk", "G MTPD"]
    assert sorted(after["units"]["murderinc"]) == ["D Man", "G MaE", "G Man", "G Sho"]
    assert sorted(after["rebuilt_dons"]) == ["lepke", "luciano"]
    report = str([r for r in world.store.results("donweb") if r["phase"] == "1919-07-W2-A"])
    assert "elects a new Don in Que" in report and "elects a new Don in WCP" in report


def test_a_removal_is_shown_as_the_rules_write_it(world, srv):
    """The seat's "What to send" at a removal gives Mobtown's notation, Remove G X (it was
    'G DAS disband', which reads as a retreat's order)."""
    centers = {mob: HOMES[mob] for mob in MOBS} | {"capone": ["DAN"]}
    t, seats = weekend(world, srv, "mobremove", "1919-07-W2-A", OPENING, centers)
    page = html.unescape(seats["capone"].get(f"/g/{t.name}/play").text)
    hint = re.search(r"<summary>What to send</summary><pre>(.*?)</pre>", page, re.S)
    assert hint, page
    assert re.search(r"^  Remove G \w+$", hint.group(1), re.M), hint.group(1)
    assert "disband" not in hint.group(1)
