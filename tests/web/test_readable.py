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


def test_the_charts_numbers_are_in_a_table_beside_it(world, srv):
    story = world.site.story(world.store.game("dip"))
    page = fetch(f"{srv.url}/g/dip/{story.steps[1].id}.html").text
    table = re.search(r'<table class="centres">.*?</table>', page, re.S).group(0)
    heads = [html.unescape(h) for h in re.findall(r'<br>([^<]+)</th>', table)]
    assert heads == [p.name for p in story.powers]
    rows = re.findall(r'<tr( class="current"[^>]*)?><th scope="row"><a href="([^"]+)\.html">'
                      r'([^<]+)</a></th>(.*?)</tr>', table)
    by_id = {s.id: s for s in story.steps}
    assert rows[0][2] == "Spring 1901"
    for current, sid, _, cells in rows:
        counts = [int(c) for c in re.findall(r'<td class="num">(\d+)</td>', cells)]
        assert counts == [by_id[sid].centers.get(p.id, 0) for p in story.powers]
        assert bool(current) == (sid == story.steps[1].id)
    assert [r[1] for r in rows if r[0]] == [story.steps[1].id]
