"""A year of a Mobtown II game on the email judge (run by hand:
``.venv/bin/python bench/judge_year.py [--weeks 52]``): 52 weekly turns, six players and an
observer, pictures on (SVG and PNG), press, a resignation and a takeover, through real mail
servers and the real serve loop (tests/judge/year.py).  Prints the store's size, its largest
tables, and the time of a backup and of a restore made while the judge runs, as JSON.  The
figures are quoted in docs/gm-guide.md ("Running it for a year"); target: a store under 5 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.judge.servers import start_servers  # noqa: E402
from tests.judge.year import simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weeks", type=int, default=52)
    args = parser.parse_args()
    servers = start_servers()
    try:
        figures = simulate(Path(tempfile.mkdtemp(prefix="judge-year-")), servers, args.weeks)
    finally:
        servers.stop()
    data = figures.as_dict()
    data["tables"] = {k: v for k, v in data["tables"].items() if v > 16384}
    data["machine"] = (f"{platform.machine()}, {os.cpu_count()} cores, Python "
                       f"{platform.python_version()}")
    print(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
