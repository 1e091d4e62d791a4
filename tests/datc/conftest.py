"""Print how many DATC cases ran and passed at the end of the session."""

from __future__ import annotations


def pytest_terminal_summary(terminalreporter) -> None:  # noqa: ANN001 - pytest hook
    stats = terminalreporter.stats
    ran = passed = 0
    for key in ("passed", "failed", "error"):
        for report in stats.get(key, []):
            nodeid = getattr(report, "nodeid", "")
            if "tests/datc/test_datc.py::test_datc[" in nodeid and report.when == "call":
                ran += 1
                passed += key == "passed"
    if ran:
        terminalreporter.write_line(f"DATC: {ran} cases run, {passed} passed")
