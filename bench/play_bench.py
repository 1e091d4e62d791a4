"""Playing on the pages, measured (run by hand: ``.venv/bin/python bench/play_bench.py``).

A standard game is started on a judge's store; the pages are served with players signed in
(uvicorn on 127.0.0.1, in this process), and France sends its orders from its page over
HTTP, every request with the headers Chromium sends:

* *submit to stored*: from sending the orders form to the answer, when the orders are in
  the store (the judge's transaction is committed before the answer leaves); median and
  90th percentile of 40;
* *submit to page*: the same, then the seat's page with the judge's answer fetched (what
  the player waits for without a browser's own work);
* *page weight*: the bytes of the seat's page, its style sheet and scripts and its map, as
  they go on the wire (gzip) and unpacked.

Prints JSON.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import uvicorn  # noqa: E402

from mobadj.judge import Judge, Store, WebPlay  # noqa: E402
from mobadj.judge.config import config_from_data  # noqa: E402
from mobadj.web import Site, create_app, server_config  # noqa: E402
from mobadj.web.demo import Table  # noqa: E402

HEADERS = {"Accept-Encoding": "gzip, deflate, br, zstd",
           "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
           "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/150.0 Safari/537.36"}
ORDERS = ["A PAR - BUR\nA MAR - SPA\nF BRE - MAO", "A PAR - PIC\nA MAR - BUR\nF BRE - ENG"]


class _Keep(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003
        return None


OPENER = urllib.request.build_opener(_Keep)


def request(url: str, cookie: str, data: bytes | None = None) -> tuple[int, dict, bytes]:
    req = urllib.request.Request(url, data=data, headers=HEADERS | {"Cookie": cookie})
    try:
        with OPENER.open(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="mobadj-play-bench-"))
    config = config_from_data({"judge": {"name": "Bench", "address": "judge@test.org",
                                         "data_dir": str(folder)}})
    store = Store(config.db_path)
    judge = Judge(store, config)
    table = Table(judge, "bench", "standard")
    readonly = Store(config.db_path, readonly=True)
    site = Site(readonly, "Bench")
    site.warm()
    port = 8765
    server = uvicorn.Server(server_config(create_app(site, play=WebPlay(judge)), "127.0.0.1",
                                          port))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}/g/bench/"
    cookie, _ = WebPlay(judge).sign_in("bench", "FRANCE", table.passwords["FRANCE"], "bench")
    jar = f"mobadj_seat_bench={cookie}"
    page = request(base + "play", jar)[2]
    import gzip
    csrf = re.search(rb'name="csrf" value="([^"]+)"', gzip.decompress(page)).group(1).decode()
    stored, round_trip = [], []
    for i in range(40):
        orders = ORDERS[i % 2]
        body = urlencode({"csrf": csrf, "do": "orders", "orders": orders}).encode()
        start = time.perf_counter()
        status, _, _ = request(base + "act", jar, body)
        done = time.perf_counter()
        request(base + "play", jar)
        shown = time.perf_counter()
        assert status == 303 and store.orders("bench", "S1901M")["FRANCE"] == orders
        stored.append((done - start) * 1000)
        round_trip.append((shown - start) * 1000)
    weight = {}
    for name, url in [("seat page", base + "play"), ("its map", base + "mine.svg")] + [
            (f"static/{n}", f"http://127.0.0.1:{port}/static/{n}")
            for n in ("web.css", "web.js", "zoom.js", "play.js")]:
        _, headers, data = request(url, jar)
        gz = {k.lower(): v for k, v in headers.items()}.get("content-encoding") == "gzip"
        weight[name] = {"wire": len(data), "unpacked": len(gzip.decompress(data) if gz
                                                          else data)}
    server.should_exit = True

    def q(values: list[float], p: float) -> float:
        return round(sorted(values)[int(p * (len(values) - 1))], 1)

    print(json.dumps({
        "submit_to_stored_ms": {"median": round(statistics.median(stored), 1),
                                "p90": q(stored, 0.9)},
        "submit_to_page_ms": {"median": round(statistics.median(round_trip), 1),
                              "p90": q(round_trip, 0.9)},
        "page_weight_bytes": weight,
        "total_wire_bytes": sum(w["wire"] for w in weight.values()),
        "total_unpacked_bytes": sum(w["unpacked"] for w in weight.values()),
    }, indent=2))


if __name__ == "__main__":
    main()
