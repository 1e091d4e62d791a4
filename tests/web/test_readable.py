"""Pages everyone can read, over real HTTP: the centre chart without colour vision, the
card table as a table, the index and the end of a game, the maps' marks."""

from __future__ import annotations

import html
import re

import pytest

from mobadj.web.chart import MIN_CONTRAST, contrast

from .helpers import PageServer, fetch


@pytest.fixture(scope="module")
def srv(world):
    with PageServer(world.site) as s:
        yield s


def chart_of(page: str) -> str:
    return re.search(r'<svg class="chart".*?</svg>', page, re.S).group(0)


# -- the centre chart -------------------------------------------------------------------------


def test_every_power_has_its_own_dash_marker_and_name_and_a_colour_that_stands_out(world,
                                                                                 srv):
    page = fetch(f"{srv.url}/g/dip/S1901M.html").text
    chart = chart_of(page)
    names = [p.name for p in world.site.story(world.store.game("dip")).powers]
    groups = re.findall(r'<g class="power" data-power="(\w+)"><title>([^<]*)</title>'
                        r'<polyline [^>]*stroke="(#[0-9a-f]{6})"[^>]*?/>(.*?)</g>', chart, re.S)
    assert [html.unescape(g[1]) for g in groups] == names
    looks = set()
    for pid, _, colour, marks in groups:
        line = re.search(rf'data-power="{pid}"><title>[^<]*</title><polyline ([^>]*)/>',
                         chart).group(1)
        dash = re.search(r'stroke-dasharray="([^"]*)"', line)
        shape = re.match(r"<(\w+)", marks).group(1) + (
            str(marks.count(",")) if marks.startswith("<polygon") else "")
        looks.add((dash.group(1) if dash else "", shape))
        assert contrast(colour) >= MIN_CONTRAST, (pid, colour)
    assert len(looks) == len(names)  # no two powers drawn alike
    ends = [html.unescape(t) for t in re.findall(r'<text class="end"[^>]*>([^<]*)</text>',
                                                  chart)]
    assert sorted(ends) == sorted(names)
    # the names are text: 4.5:1 on white, every one (France's blue, Turkey's yellow ...)
    fills = re.findall(r'<text class="end"[^>]*fill="(#[0-9a-f]{6})"', chart)
    assert len(fills) == len(names)
    assert all(contrast(f) >= 4.5 for f in fills), fills
    # Turkey's yellow is darkened for the chart, the map keeps it
    assert contrast("#e0b800") < MIN_CONTRAST


def test_powers_at_the_same_count_are_drawn_side_by_side(world, srv):
    story = world.site.story(world.store.game("dip"))
    chart = chart_of(fetch(f"{srv.url}/g/dip/S1901M.html").text)
    firsts = [re.match(r"([\d.]+),([\d.]+)", pts).groups() for pts in
              re.findall(r'<polyline points="([^"]*)"', chart)]
    at_three = [float(y) for (_, y), p in zip(firsts, story.powers, strict=True)
                if story.steps[0].centers[p.id] == 3]
    assert len(at_three) == 6 == len(set(at_three))  # six powers at 3 in 1901: six strands
    assert max(at_three) - min(at_three) < 20  # close enough to read as one count


def centre_rows(url: str) -> tuple[str, list[tuple[str, str, str, str]]]:
    """A page's supply-centre table and its rows (current mark, step id, label, cells)."""
    table = re.search(r'<table class="centres">.*?</table>', fetch(url).text, re.S).group(0)
    return table, re.findall(r'<tr( class="current"[^>]*)?><th scope="row"><a href="([^"]+)'
                             r'\.html">([^<]+)</a></th>(.*?)</tr>', table)


def test_the_charts_numbers_are_in_a_table_beside_it(world, srv):
    """A row for the start and for each phase after centres changed owner, the same rows
    on every page; the page's own phase marked where it is one."""
    story = world.site.story(world.store.game("dip"))
    table, rows = centre_rows(f"{srv.url}/g/dip/{story.steps[1].id}.html")
    heads = [html.unescape(h) for h in re.findall(r'<br>([^<]+)</th>', table)]
    assert heads == [p.name for p in story.powers]
    by_id = {s.id: s for s in story.steps}
    assert rows[0][2] == "Spring 1901" and len(rows) > 2
    for current, sid, _, cells in rows:
        counts = [int(c) for c in re.findall(r'<td class="num">(\d+)</td>', cells)]
        assert counts == [by_id[sid].centers.get(p.id, 0) for p in story.powers]
        assert not current  # (Fall 1901: no centre changed owner in Spring)
    ids = [s.id for s in story.steps]
    for _, sid, _, _ in rows[1:]:
        if sid != ids[-1]:  # the last phase's row stands whatever it holds
            before = by_id[ids[ids.index(sid) - 1]]
            assert by_id[sid].position["centers"] != before.position["centers"], sid
    _, on_its_page = centre_rows(f"{srv.url}/g/dip/{rows[1][1]}.html")
    assert [r[1:] for r in on_its_page] == [r[1:] for r in rows]
    assert [r[1] for r in on_its_page if r[0]] == [rows[1][1]]


# -- the maps' marks: builds, removals, convoys -------------------------------------------------


def test_a_removal_in_mobtown_stands_on_the_gang_beside_its_don():
    """Two markers in one space (a Gang and a Don): the cross goes on the Gang removed."""
    from mobadj.judge.hosts import host_for
    from mobadj.render import load_layout, render_svg, results_view

    game_map = host_for("mobtown2").game_map
    layout = load_layout(game_map.name)
    position = {"units": {"capone": ["G DAN", "D DAN"]}}
    svg = render_svg(game_map, layout, position)
    marked = render_svg(game_map, layout, results_view(game_map, position, [
        {"power": "capone", "order": "G DAN Disband", "result": "succeeds"},
        {"power": "capone", "order": "Build G DAS", "result": "succeeds"}]))
    gang = re.search(r'<g class="unit" data-space="DAN" data-power="capone">\s*<circle '
                     r'cx="([\d.]+)" cy="([\d.]+)"', svg).groups()
    assert re.search(rf'<g class="removal" data-space="DAN" data-power="capone">\s*<circle '
                     rf'cx="{gang[0]}" cy="{gang[1]}"', marked)
    assert '<g class="build" data-space="DAS" data-power="capone">' in marked
    assert marked.startswith(svg[:200]) and marked.rstrip().endswith("</svg>")


class Adjusted:
    """A standard game played to its first adjustments: England convoys an army to Norway
    and gets a build it never orders (waived), Austria takes Venice and builds in Vienna,
    Italy loses Venice and orders no removal (civil disorder)."""

    def __init__(self, path) -> None:
        from mobadj.judge.config import config_from_data
        from mobadj.judge.core import Judge
        from mobadj.judge.store import Store
        from mobadj.web.demo import Table
        from mobadj.web.pages import Site

        cfg = config_from_data({"judge": {"address": "judge@test.org",
                                          "data_dir": str(path)}})
        self.store = Store(cfg.db_path)
        t = Table(Judge(self.store, cfg, clock=lambda: 1.8e9, kdf_n=2**10), "adj", "standard")
        t.say("AUSTRIA", "F TRI - ADR\nA VIE - TRI")
        t.say("ITALY", "A VEN - PIE")
        t.say("ENGLAND", "F LON - NTH\nA LVP - YOR")
        t.process()
        t.say("AUSTRIA", "A TRI - VEN\nF ADR S A TRI - VEN")
        t.say("ENGLAND", "F NTH C A YOR - NWY\nA YOR - NWY")
        t.process()
        t.say("AUSTRIA", "Build A VIE")
        t.process()
        self.readonly = Store(cfg.db_path, readonly=True)
        self.site = Site(self.readonly, "Adjusting Judge", clock=lambda: 1.8e9)

    def close(self) -> None:
        self.readonly.close()
        self.store.close()


@pytest.fixture(scope="module")
def adjusted(tmp_path_factory):
    a = Adjusted(tmp_path_factory.mktemp("adjusted"))
    yield a
    a.close()


@pytest.fixture(scope="module")
def adj_srv(adjusted):
    with PageServer(adjusted.site) as s:
        yield s


def test_builds_and_removals_are_drawn_on_the_adjustment_map(adj_srv):
    svg = fetch(f"{adj_srv.url}/g/adj/map/W1901A.svg").text
    assert re.findall(r'<g class="(build|removal)" data-space="(\w+)" data-power="(\w+)">',
                      svg) == [("build", "VIE", "AUSTRIA"), ("removal", "PIE", "ITALY")]
    for kind, sid in (("build", "VIE"), ("removal", "PIE")):
        mark = re.search(rf'<g class="{kind}" data-space="{sid}"[^>]*>\s*<circle cx="([\d.]+)" '
                         r'cy="([\d.]+)"', svg)
        assert space_has(svg, sid, float(mark.group(1)), float(mark.group(2))), kind
    # the removal stands on the unit removed, as the picture draws it
    unit = re.search(r'<g class="unit" data-space="PIE" data-power="ITALY">\s*<circle '
                     r'cx="([\d.]+)" cy="([\d.]+)"', svg).groups()
    assert re.search(rf'<g class="removal" data-space="PIE"[^>]*>\s*<circle cx="{unit[0]}" '
                     rf'cy="{unit[1]}"', svg)
    page = fetch(f"{adj_srv.url}/g/adj/W1901A.html").text
    assert "a unit built is ringed in green with a plus" in page
    assert "arrows succeeded" not in page  # no arrows on an adjustment map
    # the movement maps have none of these marks
    assert 'class="build"' not in fetch(f"{adj_srv.url}/g/adj/map/F1901M.svg").text


def test_waived_builds_and_civil_disorder_removals_are_listed(adj_srv):
    page = html.unescape(fetch(f"{adj_srv.url}/g/adj/W1901A.html").text)
    assert ("Civil disorder: Italy ordered too few removals; the rules removed A PIE."
            in page)
    assert "Waived: England made 0 of 1 builds; 1 was waived (no build ordered)." in page
    assert "Waived: Austria" not in page  # its one build was made


def space_has(svg: str, sid: str, x: float, y: float) -> bool:
    """Is the point (x, y) inside space ``sid`` of the picture (its cells)?"""
    group = re.search(rf'<g id="space-{sid}">(.*?)</g>', svg, re.S).group(1)
    for rx, ry, w, h in re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                                   r'height="([\d.]+)"', group):
        if float(rx) <= x <= float(rx) + float(w) and float(ry) <= y <= float(ry) + float(h):
            return True
    return False


def test_a_convoy_route_is_marked_from_the_army_through_its_fleet(adj_srv):
    svg = fetch(f"{adj_srv.url}/g/adj/map/F1901M.svg").text
    route = re.search(r'<g class="convoy-route" data-power="ENGLAND">(.*?)</g>', svg, re.S)
    assert route is not None
    wave = re.search(r'<path d="([^"]+)"', route.group(1)).group(1)
    points = [(float(x), float(y)) for x, y in re.findall(r"[ML]([\d.]+) ([\d.]+)", wave)]
    assert space_has(svg, "YOR", *points[0]) and space_has(svg, "NWY", *points[-1])
    assert any(space_has(svg, "NTH", *p) for p in points)
    rings = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="15"', route.group(1))
    assert len(rings) == 1 and space_has(svg, "NTH", *map(float, rings[0]))  # the fleet
    page = fetch(f"{adj_srv.url}/g/adj/F1901M.html").text
    assert "a wavy line is a convoy" in page
    assert "convoy-route" not in fetch(f"{adj_srv.url}/g/adj/map/S1901M.svg").text


# -- the index and the end of a game ------------------------------------------------------------


def test_a_card_game_numbers_its_moves_one_way_with_table_talk_between(tmp_path):
    """Iron Triangle's table talk (a free command) is no move: the head of the page and the
    phase say the same move."""
    import random

    from mobadj.judge.config import config_from_data
    from mobadj.judge.core import Judge
    from mobadj.judge.store import Store
    from mobadj.web.cardview import replay
    from mobadj.web.demo import Table, play_cards
    from mobadj.web.pages import Site

    cfg = config_from_data({"judge": {"address": "judge@test.org", "data_dir": str(tmp_path)}})
    store = Store(cfg.db_path)
    t = Table(Judge(store, cfg, clock=lambda: 1.8e9, kdf_n=2**10), "it", "irontriangle",
              seats=["P1", "P2", "P3"], seed=5)
    rng = random.Random(2)
    while replay("irontriangle", t.game.state).phase != "negotiate":
        play_cards(t, rng, limit=1)
    t.say("P1", "say deal?")
    assert t.game.state["free"] == 1
    move = t.game.phase[1:]
    readonly = Store(cfg.db_path, readonly=True)
    with PageServer(Site(readonly, clock=lambda: 1.8e9)) as srv:
        page = fetch(srv.url + "/g/it/").text
    readonly.close()
    store.close()
    now = re.search(r"Now: move (\d+) \(waiting for", page).group(1)
    step = re.search(r'<h2 class="step-title"[^>]*>Move (\d+) \(waiting\)', page).group(1)
    assert now == step == move


def test_an_iron_triangle_its_gm_ended_shows_its_result_and_nobody_choosing(tmp_path):
    """Ended by the GM while two gangsters were still to offer: the game's page shows the
    result and the final table, no seat "(choosing)" and no move waiting."""
    from mobadj.judge.config import config_from_data
    from mobadj.judge.core import Judge
    from mobadj.judge.store import Store
    from mobadj.web.demo import Table, mail
    from mobadj.web.pages import Site

    cfg = config_from_data({"judge": {"address": "judge@test.org", "data_dir": str(tmp_path)}})
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=lambda: 1.8e9, kdf_n=2**10)
    t = Table(judge, "it", "irontriangle", seats=["P1", "P2", "P3"], seed=5)
    (boss,) = t.due()
    t.say(boss, "job 1 fast")
    assert len(t.due()) == 2
    judge.handle_mail(mail("gm@test.org", "GM it gm-secret\nENDGAME"))
    assert t.game.status == "ended"
    readonly = Store(cfg.db_path, readonly=True)
    with PageServer(Site(readonly, clock=lambda: 1.8e9)) as srv:
        page = fetch(srv.url + "/g/it/").text
    readonly.close()
    store.close()
    assert "The game is over (ended by the GM before its end)." in page
    assert "(choosing)" not in page and "(waiting)" not in page
    assert re.search(r'<h2 class="step-title"[^>]*>Final table', page)


# -- card games as tables ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def card_games(tmp_path_factory):
    """The four card games, each some moves into its game, by mail."""
    import random

    from mobadj.judge.config import config_from_data
    from mobadj.judge.core import Judge
    from mobadj.judge.store import Store
    from mobadj.web.demo import Table, play_cards
    from mobadj.web.pages import Site

    path = tmp_path_factory.mktemp("cards")
    cfg = config_from_data({"judge": {"address": "judge@test.org", "data_dir": str(path)}})
    store = Store(cfg.db_path)
    judge = Judge(store, cfg, clock=lambda: 1.8e9, kdf_n=2**10)
    for kind, seats, moves in (("micromob", 3, 12), ("miceheist", 3, 12),
                               ("irontriangle", 4, 20), ("microcity", 1, 12)):
        play_cards(Table(judge, kind, kind, seats=[f"P{i + 1}" for i in range(seats)],
                         seed=3), random.Random(1), limit=moves)
    readonly = Store(cfg.db_path, readonly=True)
    site = Site(readonly, "Cards Judge", clock=lambda: 1.8e9)
    with PageServer(site) as srv:
        yield store, srv
    readonly.close()
    store.close()


@pytest.mark.parametrize("kind", ["micromob", "miceheist", "irontriangle", "microcity"])
def test_a_card_games_table_is_laid_out_as_html_tables(card_games, kind):
    from mobadj.web.cardview import replay

    store, srv = card_games
    page = fetch(f"{srv.url}/g/{kind}/").text
    table = re.search(r'<section class="public-table">(.*?)</section>\n', page, re.S).group(1)
    assert '<div class="card-table">' in table and "<table" in table
    # the text of the mails is there too, folded away
    assert re.search(r'<details class="as-text"><summary>[^<]*</summary><pre class="table">',
                     table)
    outside = re.sub(r'<details class="as-text">.*?</details>', "", table, flags=re.S)
    assert "<pre" not in outside
    view = replay(kind, store.game(kind).state).view(None)
    cells = {html.unescape(c) for c in re.findall(r"<t[dh][^>]*>([^<]*)</t[dh]>", outside)}
    facts = {html.unescape(c) for c in re.findall(r"<dd>([^<]*)</dd>", outside)}
    shown = cells | facts
    seats = view.get("players") or view.get("seats") or []
    for seat in seats:  # each seat's numbers are in its row or its section
        for key, value in seat.items():
            if isinstance(value, int) and not isinstance(value, bool) and key != "player":
                assert str(value) in shown, (key, value)
    assert "None" not in shown and "True" not in shown and "False" not in shown
