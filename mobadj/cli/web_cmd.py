"""``mobadj web``: the game pages of a judge's store, served over HTTP or exported."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from mobadj.cli import main
from mobadj.cli.judge_cmd import CONFIG, log_trouble, warned


def open_site(config_path: Path):  # noqa: ANN201 - a Site, imported lazily
    """The judge's config and a :class:`~mobadj.web.pages.Site` on its store, read only.
    A store made by an older mobadj is refused, untouched: bringing it up to date is for
    the judge (``mobadj serve``, ``mobadj store check``), when the GM upgrades it, perhaps
    while the old judge still serves it."""
    from mobadj.judge.config import ConfigError, load_config
    from mobadj.judge.store import Store, StoreError
    from mobadj.web.pages import Site

    try:
        cfg = load_config(config_path)
        if not cfg.db_path.exists():
            Store(cfg.db_path).close()  # no judge has run yet: an empty store to show
        store = Store(cfg.db_path, readonly=True)
    except (ConfigError, StoreError) as exc:
        raise click.ClickException(str(exc)) from None
    return cfg, Site(store, cfg.name, cfg.timezone)


@main.command()
@CONFIG
@click.option("--host", default=None, help="Address to listen on (default: web.host, "
              "127.0.0.1).")
@click.option("--port", type=click.IntRange(1, 65535), default=None,
              help="Port (default: web.port, 8080).")
@click.option("--export", "export_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Write the pages as static files into this folder instead.")
def web(config_path: Path, host: str | None, port: int | None, export_dir: Path | None) -> None:
    """Serve the game pages (beside `mobadj serve`), or export them.

    Every game's story: the map of every phase with its orders once adjudicated, the
    supply-centre chart, public press, the card games' public table and log.  Private games
    (`mobadj game link G --private`) need their key.  Players and the GM sign in on a
    game's page to play it (web.play: false in judge.yaml keeps the pages read only).
    """
    cfg, site = open_site(config_path)
    warned(cfg)
    if export_dir is not None:
        from mobadj.web.export import export_site

        try:
            report = export_site(site, export_dir)
        except OSError as exc:
            raise click.ClickException(f"cannot write the pages into {export_dir}: "
                                       f"{exc.strerror or exc}") from None
        click.echo(f"wrote {report.pages} page(s) and {report.maps} map(s) of "
                   f"{len(report.games)} game(s) to {export_dir}")
        if report.private:
            click.echo(f"left out private game(s): {', '.join(report.private)}")
        if report.unreadable:
            click.echo(f"left as they were: game(s) whose record cannot be read here (the "
                       f"log says why): {', '.join(report.unreadable)}", err=True)
        return
    import uvicorn

    from mobadj.judge.logs import setup_logging
    from mobadj.web import create_app, server_config

    try:
        setup_logging(cfg.log, program="web")
    except OSError as exc:  # log.file in a folder that cannot be made or written
        raise click.ClickException(f"{config_path}: log.file: cannot write beside "
                                   f"{cfg.log.file}: {log_trouble(exc)}") from None

    host = host or cfg.web.host
    port = port if port is not None else cfg.web.port
    site.warm()
    click.echo(f"{cfg.name}: game pages on http://{host}:{port}/ (store {cfg.db_path}"
               + (", players may sign in and play)" if cfg.web.play else ", read only)"),
               err=True)
    sys.stderr.flush()
    https = (cfg.web.base_url or "").lower().startswith("https:")
    play = None
    if cfg.web.play:  # seats sign in and act through the judge, on a store it may write
        from mobadj.judge import Judge, Store, WebPlay

        play = WebPlay(Judge(Store(cfg.db_path), cfg))
    app = create_app(site, secure_cookies=https, play=play)
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(server_config(app, host, port)).run()
