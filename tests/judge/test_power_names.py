"""A game's own names for its powers (Mobtown II rule 1: "The names may be altered by the
GM to ridicule the particular contestants"): chosen at creation (command line or mail) or
by SET NAMES while the game forms, kept from the start, and used wherever a power is named
(results, their picture, the game pages, the export) while orders and seats still take the
map's names and ids."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from click.testing import CliRunner

from mobadj.cli import main
from mobadj.judge.store import Store
from mobadj.web.pages import Site

from .helpers import mail

MOBS = ("capone", "babyface", "diamond", "lepke", "luciano", "murderinc")
NAMES = "capone=Big Al; lepke=Louis the Lip; murderinc=Hitmen"


def gm(judge, name, text):
    return judge.handle_mail(mail("gm@test.org", f"GM {name} gm-pw-1\n{text}"))[0].body


def send(judge, name, seat, text):
    body = f"SIGNON {name} {seat} pw-{seat}\n{text}"
    return judge.handle_mail(mail(f"{seat}@test.org", body))


def start(judge, name, **options):
    judge.create_game(name, "mobtown2", "gm@test.org", "gm-pw-1", options, seed=3)
    out: list = []
    with judge.store.transaction():
        for seat in MOBS:
            judge.add_player(judge.store.game(name), f"{seat}@test.org", seat, f"pw-{seat}",
                             judge.clock(), out)
        judge.start(judge.store.game(name), judge.clock(), out)
        judge.queue(out, judge.clock())


def test_the_gm_names_the_mobs_by_mail_while_the_game_forms(judge):
    judge.create_game("g", "mobtown2", "gm@test.org", "gm-pw-1")
    reply = gm(judge, "g", "SET NAMES capone=Big Al, lepke=Louis the Lip, Murder Inc.=Hitmen")
    assert f"Names: {NAMES}." in reply
    assert judge.store.game("g").options["names"] == NAMES
    reply = gm(judge, "g", "SET NAMES caponi=Big Al")
    assert "SET: names: unknown power 'caponi'; did you mean capone?" in reply
    reply = gm(judge, "g", "SET NAMES capone=Lepke")
    assert "'Lepke' is already a name of Lepke" in reply
    assert judge.store.game("g").options["names"] == NAMES  # a refused SET changes nothing
    gm(judge, "g", "ADDPLAYER hit@test.org Hitmen")  # a seat by its new name
    assert [p.power for p in judge.store.players("g")] == ["murderinc"]
    gm(judge, "g", "ADDPLAYER lou@test.org Lepke\nSTART")  # or by the map's
    assert judge.store.game("g").state["rules"] == {"names": NAMES}
    reply = gm(judge, "g", "SET NAMES capone=Al the Hat")
    assert "names is a rule option: rule options can be changed only while the game is " \
           "forming" in reply
    reply = judge.handle_mail(mail("gm@test.org", "CREATE bymail mobtown2 gm-pw-1 "
                                   "names=murderinc=Hitmen"))[0].body
    assert "Game bymail (mobtown2) created" in reply
    assert judge.store.game("bymail").options["names"] == "murderinc=Hitmen"


def test_the_command_line_names_the_mobs(tmp_path):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text("judge:\n  address: judge@test.org\n  data_dir: d\n  timezone: UTC\n")
    r = CliRunner().invoke(main, ["game", "create", "--config", str(cfg), "cli", "-k",
                                  "mobtown2", "--gm", "gm@test.org", "-o",
                                  "names=Al Capone=Big Al; Lepke=Louis the Lip; murder=Hitmen"])
    assert r.exit_code == 0, r.output
    store = Store(tmp_path / "d" / "judge.sqlite")
    assert store.game("cli").options["names"] == NAMES
    store.close()
    r = CliRunner().invoke(main, ["game", "create", "--config", str(cfg), "bad", "-k",
                                  "mobtown2", "--gm", "gm@test.org", "-o",
                                  "names=capone=Big Al; babyface=big al"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "'big al' is given to both capone and babyface" in r.output


def test_the_names_are_used_wherever_a_mob_is_named(judge, clock):
    start(judge, "g", names=NAMES)
    for seat in MOBS:  # June 1919: each mob places its Don, by any of its names
        first = {"capone": "Big Al: Don starts in DAN", "lepke": "Lepke: D Pie",
                 "luciano": "Lucky Luciano: D 5th"}.get(seat, "")
        out = send(judge, "g", seat, f"{first}\nready")
    week = {"capone": "Al Capone: G+D(DAN)-Col\nG(DAS) S G(DAN)-Col",
            "lepke": "Louis the Lip: G(Que)-Wes\nlepke: G(P45) S G(Que)-Wes"}
    for seat in MOBS:
        out = send(judge, "g", seat, week.get(seat, "") + "\nready")
    results = [m for m in out if "(1919-07-W1-M) results" in m.subject]
    assert results, [m.subject for m in out]
    body = results[0].body
    assert "Big Al:" in body and "Louis the Lip:" in body
    assert "G+D DAN - Col" in body and "G Que - Wes" in body
    assert "Al Capone" not in body and "Lepke:" not in body
    assert "Lucky Luciano" in body  # a mob the GM did not rename keeps its name
    svg = next(data for name, _t, data in results[0].attachments if name == "map.svg")
    root = ET.fromstring(svg)
    shown = {el.get("data-power"): el.text for el in root.iter("{http://www.w3.org/2000/svg}text")
             if el.get("class") == "mob-name"}
    assert shown["capone"] == "Big Al" and shown["lepke"] == "Louis the Lip"
    assert shown["luciano"] == "Lucky Luciano"
    assert len(root.findall(".//{http://www.w3.org/2000/svg}path[@class='support-ok']")) == 2
    site = Site(judge.store, clock=clock)
    page = site.game_html("g")
    assert "Big Al" in page and "Louis the Lip" in page and "Al Capone" not in page
    picture = site.map_svg("g", site.story(judge.store.game("g")).steps[-2].id)
    assert "Big Al" in picture and "Al Capone" not in picture
    exported = gm(judge, "g", "EXPORT")
    assert "Export mailed to the GM." in exported
    data = judge.export("g")
    assert data["options"]["names"] == NAMES
    assert "Big Al" in json.dumps(data)


def test_a_seat_signs_on_by_its_new_name_and_list_shows_the_names(judge):
    start(judge, "n", names=NAMES)
    reply = judge.handle_mail(mail("lepke@test.org", "SIGNON n Louis the Lip pw-lepke\nLIST"))
    body = reply[0].body
    assert "Sign-on refused" not in body
    assert "Louis the Lip: units" in body and "Big Al: units" in body
    assert "Lepke: units" not in body
