"""The pages over real HTTP (uvicorn on 127.0.0.1), read from a judge's store: the index, a
game's phases, maps, press, card games, private games; and the static export."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from mobadj.web.export import export_site

from .conftest import GREY_PRESS, PUBLIC_PRESS, SECRET_PRESS
from .helpers import PageServer, fetch, order_spans


@pytest.fixture(scope="module")
def srv(world):
    with PageServer(world.site) as s:
        yield s


def test_index_lists_games_with_status_and_free_seats(world, srv):
    r = fetch(srv.url + "/")
    assert r.status == 200 and "text/html" in r.headers["content-type"]
    page = r.text
    for name in ("dip", "mob", "cards", "newgame"):
        assert f'href="g/{name}/index.html"' in page
    assert "secret" not in page  # a private game is not even listed
    row = re.search(r'<tr class="game" id="game-dip">.*?</tr>', page, re.S).group(0)
    assert "Diplomacy" in row and 'class="countdown"' in row
    assert "England</span> <span class=\"what\">orders in" in row  # who, not what
    assert "F EDI - NTH" not in page
    forming = re.search(r'<tr class="game" id="game-newgame">.*?</tr>', page, re.S).group(0)
    assert "6 free" in forming and "France" in forming
    assert "micro mob" in page and "game over" not in page
    ended = re.search(r'<tr class="game" id="game-cards">.*?</tr>', page, re.S).group(0)
    story = world.site.story(world.store.game("cards"))
    winners = [s for s in story.scores if s.winner]  # a tie has several
    said = ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(
        w.seat for w in winners)
    assert said in ended and "nothing due" not in ended
    for winner in winners:
        assert f"{winner.seat}</span> <span class=\"what\">{winner.total:g} points, winner" in ended
    assert f"after move {len(story.steps) - 1}" in ended  # the last move played
    assert fetch(srv.url + "/index.html").text == page


def test_game_page_steps_orders_and_secret_current_orders(world, srv):
    results = world.store.results("dip")
    latest = fetch(srv.url + "/g/dip/")
    assert latest.status == 200
    game = world.store.game("dip")
    assert f"{len(results) + 1} / {len(results) + 1}" in latest.text
    assert "secret until the phase is adjudicated" in latest.text
    assert order_spans(latest.text) == []
    assert "F EDI - NTH" not in latest.text
    for r in results:
        page = fetch(f"{srv.url}/g/dip/{r['phase']}.html").text
        listed = sorted(order_spans(page))
        data = r["report"]["data"]
        assert listed == sorted(d["order"] for d in data["results"] + data["defaults"])
        assert f'<img src="map/{r["phase"]}.svg"' in page
    first = fetch(f"{srv.url}/g/dip/{results[0]['phase']}.html").text
    assert 'rel="next"' in first and 'rel="prev"' not in first
    assert "succeeds" in first and re.search(r'class="reason">\([a-z ]+\)', first)
    assert 'class="chart"' in first and "<polyline" in first
    assert game.phase in latest.text or "Winter" in latest.text


def test_an_address_typed_in_any_case_opens_its_page(world, srv):
    """A phase read out of a mail ("S1901M") and typed by hand: the site's own words and
    the phase in any case answer with the page itself, in place (its links are relative:
    the visitor stays at the address typed); the game's name is sent to its own spelling."""
    phase = world.store.results("dip")[0]["phase"]
    page = fetch(f"{srv.url}/g/dip/{phase}.html").text
    for typed in (f"/G/dip/{phase}.html", f"/g/dip/{phase.lower()}.html",
                  f"/g/dip/{phase}.HTML", f"/G/dip/{phase.lower()}.Html"):
        answer = fetch(srv.url + typed)
        assert answer.status == 200 and answer.text == page, typed
    svg = fetch(f"{srv.url}/g/dip/map/{phase}.svg").text
    assert fetch(f"{srv.url}/G/dip/MAP/{phase.lower()}.SVG").text == svg
    assert fetch(srv.url + "/INDEX.HTML").text == fetch(srv.url + "/").text
    assert fetch(srv.url + "/G/dip/").text == fetch(srv.url + "/g/dip/").text
    assert fetch(srv.url + "/Static/WEB.CSS").status == 200
    moved = fetch(f"{srv.url}/G/DIP/{phase.lower()}.html")
    assert moved.status == 303 and moved.headers["location"] == f"../dip/{phase.lower()}.html"
    assert fetch(f"{srv.url}/g/dip/X{phase}.html").status == 404


def test_maps_differ_by_phase_and_show_orders(world, srv):
    results = world.store.results("dip")
    a = fetch(f"{srv.url}/g/dip/map/{results[0]['phase']}.svg")
    b = fetch(f"{srv.url}/g/dip/map/{results[1]['phase']}.svg")
    now = fetch(f"{srv.url}/g/dip/map/{world.store.game('dip').phase}.svg")
    assert a.status == b.status == now.status == 200
    assert a.headers["content-type"].startswith("image/svg+xml")
    assert a.text.startswith("<svg") or a.text.startswith("<?xml")
    assert a.text != b.text != now.text
    assert fetch(f"{srv.url}/g/dip/map/X1999M.svg").status == 404


def test_press_only_as_public_as_sent(world, srv):
    pages = [fetch(f"{srv.url}/g/dip/{sid}.html").text for sid in world.site.steps("dip")]
    everything = "\n".join(pages)
    assert PUBLIC_PRESS in everything and GREY_PRESS in everything
    assert SECRET_PRESS not in everything
    grey = next(p for p in pages if GREY_PRESS in p)
    block = re.search(r'<blockquote class="press">(?:(?!</blockquote>).)*' + GREY_PRESS[:10],
                      grey, re.S).group(0)
    assert "Anonymous (grey press)" in block and "TURKEY" not in block


def test_mobtown_page_has_calendar_dons_gaol_and_legend(world, srv):
    page = fetch(f"{srv.url}/g/mob/").text
    assert "Mobtown II" in page and "Calendar" in page and "July 1919" in page
    assert "Dons and the gaol" in page and "In gaol (MTPD)" in page
    assert "The city plan&#39;s legend" in page or "The city plan's legend" in page
    first = fetch(f"{srv.url}/g/mob/1919-06-START.html").text
    assert "Don placement" in first and order_spans(first)
    assert fetch(f"{srv.url}/g/mob/map/1919-06-START.svg").status == 200


def test_card_game_public_log_table_scores_and_seed(world, srv):
    state = world.store.game("cards").state
    page = fetch(f"{srv.url}/g/cards/").text
    assert "Game over." in page and "Final scores" in page and "Public log" in page
    assert "view of spectator" in page
    assert str(state["seed"]) in page and state["commitment"] in page
    assert "The seed matches" in page
    assert "<th>goons</th>" in page and "<th>allies</th>" in page  # micro mob's breakdown
    move = fetch(f"{srv.url}/g/cards/M2.html").text
    assert "The table after this move" in move
    assert str(state["seed"]) not in move.split("Seed check")[0]


def test_private_game_needs_its_key(world, srv):
    assert fetch(f"{srv.url}/g/secret/").status == 404  # as a game that does not exist
    wrong = fetch(f"{srv.url}/g/secret/?key=not-it")
    assert wrong.status == 404 and "That key opens no game called secret" in wrong.text
    assert fetch(f"{srv.url}/g/secret/map/S1901M.svg").status == 404
    assert fetch(f"{srv.url}/g/secret/", cookie="mobadj_key_secret=guess").status == 404
    ok = fetch(f"{srv.url}/g/secret/S1901M.html?key=the-right-key-123")
    assert ok.status == 303 and ok.headers["location"] == "S1901M.html"
    cookie = ok.headers["set-cookie"]
    assert "HttpOnly" in cookie and "Path=" not in cookie  # the folder the browser sees
    value = cookie.split(";")[0]
    page = fetch(f"{srv.url}/g/secret/S1901M.html", cookie=value)
    assert page.status == 200 and "the-right-key-123" not in page.text
    assert fetch(f"{srv.url}/g/secret/map/S1901M.svg", cookie=value).status == 200
    form = fetch(f"{srv.url}/g/secret/key", data=b"key=the-right-key-123")
    assert form.status == 303 and form.headers["location"] == "./"
    assert fetch(f"{srv.url}/g/secret/key", data=b"key=nope").status == 404


def test_unknown_pages_are_404_and_headers_are_safe(world, srv):
    assert fetch(f"{srv.url}/g/nosuch/").status == 404
    assert fetch(f"{srv.url}/g/dip/NOPE.html").status == 404
    assert fetch(f"{srv.url}/g/dip/..%2F..%2Fetc.html").status == 404
    r = fetch(f"{srv.url}/g/dip/")
    assert r.headers["referrer-policy"] == "no-referrer"
    assert fetch(f"{srv.url}/static/web.css").status == 200
    folder = fetch(f"{srv.url}/g/dip?key=x")  # to the folder, kept by no cache, no key
    assert folder.status == 303 and folder.headers["location"] == "dip/"
    assert folder.headers["cache-control"] == "private, no-store"


def test_no_address_or_password_on_any_page(world, srv):
    pages = [fetch(srv.url + "/").text]
    for name in ("dip", "mob", "cards", "newgame"):
        pages.append(fetch(f"{srv.url}/g/{name}/").text)
        pages += [fetch(f"{srv.url}/g/{name}/{sid}.html").text
                  for sid in world.site.steps(name)[:4]]
    text = "\n".join(pages)
    assert "@" not in text
    assert "pw-" not in text and "gm-secret" not in text and "the-right-key" not in text


def test_export_writes_the_same_pages_without_private_games(world, tmp_path):
    report = export_site(world.site, tmp_path)
    assert "secret" in report.private and "secret" not in report.games
    assert (tmp_path / "index.html").is_file() and (tmp_path / "static" / "web.js").is_file()
    steps = world.site.steps("dip")
    for sid in steps:
        assert (tmp_path / "g" / "dip" / f"{sid}.html").is_file()
        assert (tmp_path / "g" / "dip" / "map" / f"{sid}.svg").is_file()
    assert not (tmp_path / "g" / "secret").exists()
    page = (tmp_path / "g" / "dip" / f"{steps[0]}.html").read_text()
    assert page == world.site.game_html("dip", steps[0])
    assert 'href="../../static/web.css?v=' in page


def test_cli_export_and_link(world, tmp_path):
    cfg = tmp_path / "judge.yaml"
    cfg.write_text(f"judge:\n  address: judge@test.org\n  data_dir: "
                   f"{world.config.data_dir}\nweb:\n  base_url: https://games.example.org/j\n")
    mobadj = [str(Path(sys.executable).with_name("mobadj"))]
    out = subprocess.run(mobadj + ["web", "-c", str(cfg), "--export", str(tmp_path / "site")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "left out private game(s): secret" in out.stdout
    assert (tmp_path / "site" / "g" / "mob" / "index.html").is_file()
    link = subprocess.run(mobadj + ["game", "link", "secret", "-c", str(cfg)],
                          capture_output=True, text=True, timeout=60)
    assert link.stdout.strip() == ("secret is private: https://games.example.org/j/g/secret/"
                                   "?key=the-right-key-123")
    bad = subprocess.run(mobadj + ["game", "link", "nosuch", "-c", str(cfg)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "no game 'nosuch'" in bad.stderr


def test_a_state_this_installation_cannot_read_is_listed_and_logged(tmp_path, caplog):
    """A game whose stored state no longer reads here (its map has changed) is still listed
    on the index, with its stored phase, and the log says why."""
    from mobadj.judge.store import Store
    from mobadj.web.pages import Site

    store = Store(tmp_path / "judge.sqlite")
    with store.transaction():
        store.create_game("odd", "standard", {}, 1, "gm@x.org", "h", 0)
        store.update_game("odd", status="active", phase="S1901M",
                          state={"position": {"phase": "no such phase"}})
    site = Site(store, "Test Judge", "Europe/London", clock=lambda: 0.0)
    html = site.index_html()
    assert "odd" in html and "S1901M" in html
    said = [r for r in caplog.records if "odd" in r.getMessage() and r.name == "mobadj.web"]
    assert said and "cannot be read here" in said[0].getMessage()
    caplog.clear()
    for _ in range(3):  # said once in the log, not on every index shown
        site.index_html()
    assert not [r for r in caplog.records if "odd" in r.getMessage()]
    store.close()
