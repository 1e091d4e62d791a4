"""``mobadj serve`` runs the email judge; ``mobadj game ...`` is the GM's command line.

GM commands change the judge's store directly (safe while ``serve`` runs: SQLite
transactions) and queue their mails in the outbox; the running judge sends them, or
``--send`` sends them at once.
"""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import sqlite3
from pathlib import Path
from typing import Any

import click

from mobadj.cli import main, option_pairs

STOP_SECONDS = 2.0
"""How long a stopping judge waits for the IMAP server's goodbye."""

STORE_PATH = "mobadj.judge.store"
"""Where :func:`_open` notes the store's path in click's context, for :class:`GMGroup`."""


CONFIG = click.option(
    "--config", "-c", "config_path", type=click.Path(dir_okay=False, path_type=Path),
    envvar="MOBADJ_JUDGE_CONFIG", default="judge.yaml", show_default=True,
    help="The judge's configuration file (env MOBADJ_JUDGE_CONFIG).",
)


def warned(cfg: Any) -> Any:
    """``cfg`` (a JudgeConfig), once what it warns of (an unknown key, with the known one it
    resembles) is on standard error."""
    for line in cfg.warnings:
        click.echo(f"Warning: {line}", err=True)
    return cfg


def log_trouble(exc: OSError) -> str:
    """Why a log file cannot be written, in words: a folder on its path that is a file is
    named as such (mkdir says only "File exists")."""
    if isinstance(exc, FileExistsError):
        return f"{exc.filename} is a file, not a folder"
    return str(exc.strerror or exc)


def _open(config_path: Path, checked: bool = False) -> Any:
    """The judge of a config; ``checked``: only when SQLite's quick check finds its store
    sound, before anything is written into it (``mobadj serve``)."""
    from mobadj.judge.config import ConfigError, load_config
    from mobadj.judge.core import Judge
    from mobadj.judge.store import Store, StoreError, damaged, quick_damage, store_trouble

    try:
        cfg = warned(load_config(config_path))
        click.get_current_context().meta[STORE_PATH] = cfg.db_path
        trouble = quick_damage(cfg.db_path) if checked else None
        if trouble:
            raise StoreError(damaged(cfg.db_path, trouble))
        return Judge(Store(cfg.db_path), cfg)
    except (ConfigError, StoreError) as exc:  # no folder for the store, a newer store, ...
        raise click.ClickException(str(exc)) from None
    except sqlite3.OperationalError as exc:  # a full disk
        raise click.ClickException(store_trouble(cfg.db_path, exc)) from None


@main.command()
@CONFIG
@click.option("--once", is_flag=True, help="Handle waiting mail and deadlines once, then exit.")
@click.option("--poll", type=float, default=None, help="Seconds between polls (default: config).")
@click.option("--verbose", "-v", is_flag=True, help="Log every step.")
def serve(config_path: Path, once: bool, poll: float | None, verbose: bool) -> None:
    """Run the email judge: watch the mailbox, answer every mail, adjudicate at deadlines."""
    from mobadj.judge.config import ConfigError
    from mobadj.judge.logs import setup_logging
    from mobadj.judge.mailbox import Mailbox
    from mobadj.judge.mailer import Mailer
    from mobadj.judge.service import NETWORK_ERRORS, Service, describe, one_judge
    from mobadj.judge.store import StoreError, store_trouble

    judge = _open(config_path, checked=True)
    cfg = judge.config
    try:  # one judge per store, held until this process ends (before its log is touched)
        held = one_judge(cfg.db_path)  # noqa: F841 (the lock lives as long as the name)
    except (OSError, StoreError) as exc:
        raise click.ClickException(str(exc)) from None
    try:
        setup_logging(cfg.log, verbose)
    except OSError as exc:  # log.file in a folder that cannot be made or written
        raise click.ClickException(f"{config_path}: log.file: cannot write {cfg.log.file}: "
                                   f"{log_trouble(exc)}") from None
    if cfg.imap is None or cfg.smtp is None:
        raise click.ClickException(f"{config_path} needs both an 'imap' and an 'smtp' section")
    service = Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name,
                                                       judge.clock), poll_seconds=poll)
    log = logging.getLogger("mobadj.judge.service")
    if once:
        try:
            n = service.step()
        except NETWORK_ERRORS as exc:  # one clear line (the server and why), no traceback
            raise click.ClickException(describe(exc)) from None
        except ConfigError as exc:
            raise click.ClickException(str(exc)) from None
        except sqlite3.OperationalError as exc:  # a full disk: what was stored is kept
            log.error("%s", store_trouble(cfg.db_path, exc))  # the log, and standard error
            raise SystemExit(1) from None
        finally:
            service.mailbox.close()
        click.echo(f"handled {n} mail(s)")
        return
    # SIGTERM (systemd's stop, kill) ends the judge as Ctrl-C does: the mail or phase in
    # hand is rolled back whole, to be done again at the next start.  It is taken before
    # the judge says it is serving: a stop that comes at once ends it as well.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with contextlib.suppress(KeyboardInterrupt):
        try:
            click.echo(f"{cfg.name}: serving {cfg.address} (store {cfg.db_path})", err=True)
            log.info("serving %s (store %s)", cfg.address, cfg.db_path)
            service.serve()
        finally:
            service.mailbox.close(timeout=STOP_SECONDS)
            log.info("stopped")
    click.echo(f"{cfg.name}: stopped", err=True)


class GMGroup(click.Group):
    """``mobadj game``: a store that cannot be written (a full disk) ends any of its commands
    with one line naming the store and the cause, as ``serve --once`` does; the command's
    transaction is rolled back whole."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except sqlite3.OperationalError as exc:
            from mobadj.judge.store import store_trouble

            path = ctx.meta.get(STORE_PATH, "the judge's store")
            raise click.ClickException(store_trouble(path, exc)) from None


@main.group(cls=GMGroup)
def game() -> None:
    """GM commands: create and steer the judge's games."""


def _gm(config_path: Path, name: str, command: str, args: dict[str, Any], send: bool) -> None:
    from mobadj.judge.commands import Command
    from mobadj.judge.core import JudgeError
    from mobadj.judge.hosts import HostError

    judge = _open(config_path)
    out: list = []
    now = judge.clock()
    try:
        with judge.store.transaction():
            text = judge.gm_command(name, Command(command, args, 0, f"(command line) {command}"),
                                    now, out)
            judge.queue(out, now)
    except (JudgeError, HostError) as exc:
        raise click.ClickException(judge.localize(str(exc))) from None
    click.echo(judge.localize(text))
    _after(judge, out, send)


def _after(judge: Any, out: list, send: bool) -> None:
    if not out:
        return
    if send:
        from mobadj.judge.mailer import Mailer

        cfg = judge.config
        if cfg.smtp is None:
            raise click.ClickException("no smtp section in the judge's configuration")
        n = Mailer(cfg.smtp, cfg.address, cfg.name, judge.clock).send_outbox(judge.store)
        click.echo(f"{n} mail(s) sent.")
    else:
        click.echo(f"{len(out)} mail(s) queued; the running judge sends them.")


SEND = click.option("--send", is_flag=True, help="Send the resulting mails now over SMTP.")


@game.command("create")
@CONFIG
@click.argument("name")
@click.option("--kind", "-k", default="standard", show_default=True,
              help="A map (maps/<name>.yaml: standard, ...) or a card game (micromob, ...).")
@click.option("--gm", "gm_email", required=True, help="The GM's email address.")
@click.option("--gm-password", envvar="MOBADJ_GM_PASSWORD", default=None,
              help="GM password (env MOBADJ_GM_PASSWORD); generated when absent.")
@click.option("--option", "-o", "options", multiple=True,
              help="NAME=VALUE: a game option of the judge (deadline_hours=72, press=grey, "
                   "...) or a rule option of the map (paradox=1982, too_many=last, ...).")
@click.option("--seed", type=int, default=None, help="Random seed (default: fresh).")
@click.option("--open", "open_", is_flag=True,
              help="Players sign up by mail (JOIN game [powers]); powers are given when full "
                   "(with --no-autostart: at your START).")
@click.option("--approve", is_flag=True, help="With --open: you approve each JOIN.")
@click.option("--no-autostart", is_flag=True,
              help="With --open: a full game waits for your START instead of starting; "
                   "nothing is dealt before it.")
def create(config_path: Path, name: str, kind: str, gm_email: str, gm_password: str | None,
           options: tuple[str, ...], seed: int | None, open_: bool, approve: bool,
           no_autostart: bool) -> None:
    """Create a game (it is 'forming' until START, or until it fills with --open)."""
    from mobadj.judge.accounts import password_refusal
    from mobadj.judge.core import JudgeError
    from mobadj.judge.hosts import HostError

    refusal = password_refusal(gm_password) if gm_password is not None else None
    if refusal:  # as a player's: the GM's sign-on line must carry it, and it guards more
        raise click.ClickException(f"the GM password: {refusal}")
    opts: dict[str, Any] = {key.lower().replace("-", "_"): value
                            for key, value in option_pairs(options).items()}
    if (approve or no_autostart) and not open_:
        raise click.BadParameter("needs --open", param_hint="--approve/--no-autostart")
    if open_:
        opts |= {"open": "yes", "approve": "yes" if approve else "no",
                 "autostart": "no" if no_autostart else "yes"}
    judge = _open(config_path)
    try:
        g, password = judge.create_game(name, kind, gm_email, gm_password, opts, seed)
    except (JudgeError, HostError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Game {g.name} ({g.kind}) created.")
    rules = judge.rules_line(g)
    if rules:
        click.echo(rules)
    if gm_password is None:  # shown once: the store keeps only its hash
        click.echo(f"GM password: {password}\n(kept only as a hash; use --gm-password or "
                   f"MOBADJ_GM_PASSWORD to choose it)")
    if open_:
        click.echo(f"Players join by mail: JOIN {g.name} [powers, best first]"
                   + ("; approve each with mobadj game approve." if approve else "."))


@game.command("add-player")
@CONFIG
@click.argument("name")
@click.argument("email")
@click.argument("power")
@SEND
def add_player(config_path: Path, name: str, email: str, power: str, send: bool) -> None:
    """Give POWER to the player at EMAIL (a password is generated and mailed to them)."""
    _gm(config_path, name, "addplayer", {"email": email, "power": power, "password": None}, send)


@game.command("approve")
@CONFIG
@click.argument("name")
@click.argument("email")
@SEND
def approve(config_path: Path, name: str, email: str, send: bool) -> None:
    """Accept the JOIN of EMAIL (games created with --open --approve)."""
    _gm(config_path, name, "approve", {"value": email}, send)


@game.command("reject")
@CONFIG
@click.argument("name")
@click.argument("email")
@SEND
def reject(config_path: Path, name: str, email: str, send: bool) -> None:
    """Refuse the JOIN of EMAIL."""
    _gm(config_path, name, "reject", {"value": email}, send)


@game.command("start")
@CONFIG
@click.argument("name")
@SEND
def start(config_path: Path, name: str, send: bool) -> None:
    """Start the game: first phase and its deadline."""
    _gm(config_path, name, "start", {}, send)


@game.command("deadline")
@CONFIG
@click.argument("name")
@click.argument("when", nargs=-1, required=True)
@SEND
def deadline(config_path: Path, name: str, when: tuple[str, ...], send: bool) -> None:
    """Set the deadline: YYYY-MM-DD HH:MM [time zone]."""
    _gm(config_path, name, "deadline", {"when": " ".join(when)}, send)


def _duration(text: str) -> float:
    from mobadj.judge.commands import parse_duration

    try:
        return parse_duration(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@game.command("extend")
@CONFIG
@click.argument("name")
@click.argument("duration")
@SEND
def extend(config_path: Path, name: str, duration: str, send: bool) -> None:
    """Extend the deadline by DURATION (e.g. 24h, 2d)."""
    _gm(config_path, name, "extend", {"seconds": _duration(duration)}, send)


@game.command("pause")
@CONFIG
@click.argument("name")
@click.argument("duration", required=False)
@SEND
def pause(config_path: Path, name: str, duration: str | None, send: bool) -> None:
    """Pause the game (it resumes by itself after DURATION or the pause_max_days option)."""
    _gm(config_path, name, "pause", {"seconds": _duration(duration) if duration else None}, send)


@game.command("resume")
@CONFIG
@click.argument("name")
@SEND
def resume(config_path: Path, name: str, send: bool) -> None:
    """Resume a paused game."""
    _gm(config_path, name, "resume", {}, send)


@game.command("replace")
@CONFIG
@click.argument("name")
@click.argument("power")
@click.argument("email")
@SEND
def replace(config_path: Path, name: str, power: str, email: str, send: bool) -> None:
    """Give POWER to a new player at EMAIL."""
    _gm(config_path, name, "replace", {"power": power, "email": email}, send)


@game.command("offer")
@CONFIG
@click.argument("name")
@click.argument("power")
@click.option("--withdraw", is_flag=True, help="Withdraw the offer.")
@SEND
def offer(config_path: Path, name: str, power: str, withdraw: bool, send: bool) -> None:
    """Offer POWER for TAKEOVER: anyone may ask to take it over (its player keeps it
    until then)."""
    _gm(config_path, name, "offer", {"words": [power, "no"] if withdraw else [power]}, send)


@game.command("orders")
@CONFIG
@click.argument("name")
@click.argument("power")
@click.argument("orders", type=click.File("r", encoding="utf-8"), default="-")
@SEND
def orders(config_path: Path, name: str, power: str, orders: Any, send: bool) -> None:
    """Enter orders for POWER (from the file ORDERS, or standard input): kept as the GM's,
    the results say so, and the power's player is told."""
    from mobadj.judge.core import JudgeError
    from mobadj.judge.hosts import HostError

    text = orders.read()
    judge = _open(config_path)
    out: list = []
    now = judge.clock()
    try:
        with judge.store.transaction():
            game_ = judge.store.game(name)
            if game_ is None:
                raise JudgeError(f"no game {name!r}")
            judge.store.record_command(game_.name, "GM", None, None, "become", power, now)
            reply = judge.gm_orders(game_, power, text, now, out)
            judge.queue(out, now)
    except (JudgeError, HostError) as exc:
        raise click.ClickException(judge.localize(str(exc))) from None
    click.echo(judge.localize(reply))
    _after(judge, out, send)


@game.command("status")
@CONFIG
@click.argument("name")
def status(config_path: Path, name: str) -> None:
    """The GM's view of a game: who owes orders, missed deadlines, addresses, deadline,
    what waits for you."""
    from mobadj.judge.overview import status_text

    judge = _open(config_path)
    g = judge.store.game(name)
    if g is None:
        raise click.ClickException(f"no game {name!r}")
    click.echo(status_text(judge, g, judge.clock()))


@game.command("summary")
@CONFIG
@click.argument("name")
def summary(config_path: Path, name: str) -> None:
    """Who played which power when, the supply centres by year, the result (SUMMARY)."""
    from mobadj.judge.overview import summary_text

    judge = _open(config_path)
    g = judge.store.game(name)
    if g is None:
        raise click.ClickException(f"no game {name!r}")
    click.echo(judge.localize(summary_text(judge.store, g, gm_view=True)))


@game.command("process")
@CONFIG
@click.argument("name")
@click.argument("phase", required=False)
@SEND
def process(config_path: Path, name: str, phase: str | None, send: bool) -> None:
    """Resolve the current phase now; with PHASE (e.g. S1901M), only if the game is still
    at it (nothing is done if the phase was adjudicated meanwhile)."""
    _gm(config_path, name, "process", {"value": phase}, send)


@game.command("rollback")
@CONFIG
@click.argument("name")
@SEND
def rollback(config_path: Path, name: str, send: bool) -> None:
    """Undo the last resolved phase (its orders stand again)."""
    _gm(config_path, name, "rollback", {}, send)


@game.command("end")
@CONFIG
@click.argument("name")
@click.argument("powers", nargs=-1)
@click.option("--draw", is_flag=True,
              help="A draw between POWERS (default: every surviving power).")
@click.option("--winner", default=None, help="The power that wins (e.g. by concession).")
@SEND
def end(config_path: Path, name: str, powers: tuple[str, ...], draw: bool,
        winner: str | None, send: bool) -> None:
    """End the game, with a result: --draw [POWERS ...], --winner POWER, or none."""
    if draw and winner:
        raise click.BadParameter("give --draw or --winner, not both")
    if powers and not draw:
        raise click.BadParameter("powers are the members of a draw: add --draw")
    words = ["draw", *powers] if draw else ["win", winner] if winner else []
    _gm(config_path, name, "endgame", {"words": words}, send)


@game.command("set")
@CONFIG
@click.argument("name")
@click.argument("option")
@click.argument("value")
def set_option(config_path: Path, name: str, option: str, value: str) -> None:
    """Set a game option (press, deadline_hours, grace_hours, ...; a map's rule options
    only while the game is forming), or ``gm EMAIL``: hand the game to a new GM."""
    _gm(config_path, name, "set", {"option": option.replace("-", "_"), "value": value}, False)


@game.command("export")
@CONFIG
@click.argument("name")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of standard output.")
def export(config_path: Path, name: str, output: Path | None) -> None:
    """The whole history of a game as JSON (no password hashes); a file is written
    readable by you alone (0600): it holds private press and addresses."""
    from mobadj.judge.core import JudgeError
    from mobadj.privatefile import write_privately

    judge = _open(config_path)
    try:
        data = judge.export(name)
    except JudgeError as exc:
        raise click.ClickException(str(exc)) from None
    text = json.dumps(data, indent=1, sort_keys=True)
    if output:
        try:
            write_privately(output, text + "\n")
        except OSError as exc:
            raise click.ClickException(f"cannot write {output}: {exc.strerror}") from None
        click.echo(f"written {output}")
    else:
        click.echo(text)


@game.command("delete")
@CONFIG
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask first.")
def delete(config_path: Path, name: str, yes: bool) -> None:
    """Take an ended game (or one still forming) out of the store, with everything kept of
    it: players' addresses, orders, press, results.  Export it first for the archive;
    backups made before still hold it."""
    from mobadj.judge import JudgeError, deletion

    judge = _open(config_path)
    why = deletion.refusal(judge.store, name)
    if why:
        raise click.ClickException(why)
    if not yes and not click.confirm(
            f"Delete {name.lower()} and everything kept of it (addresses, orders, press, "
            "results)? It cannot be undone", default=False):
        raise click.ClickException("nothing was deleted")
    try:
        gone = deletion.delete_game(judge.store, name, judge.clock())
    except JudgeError as exc:
        raise click.ClickException(str(exc)) from None
    rows = ", ".join(f"{table} {count}" for table, count in sorted(gone.items()))
    click.echo(f"Deleted {name.lower()} (rows removed: {rows}). Backups made before still "
               "hold it.")


@game.command("list")
@CONFIG
def list_games(config_path: Path) -> None:
    """Every game on this judge with its phase and deadline (an ended one: its result)."""
    from mobadj.judge import reports

    judge = _open(config_path)
    games = judge.store.games()
    if not games:
        click.echo("no games")
    for g in games:
        players = len(judge.store.players(g.name))
        if g.status == "ended":
            last = f"result: {judge.endings.result_line(judge.store.ending(g.name), g)}"
        elif g.status == "paused":  # its deadline is frozen: what counts is the pause's end
            last = ("paused" if g.paused_until is None
                    else f"paused until {reports.when(g.paused_until, judge.tz)}")
        elif g.deadline is None:
            last = "no deadline"
        else:
            last = f"deadline {reports.when(g.deadline, judge.tz)}"
        click.echo(f"{g.name:<16} {g.kind:<10} {g.status:<8} {g.phase or '-':<8} "
                   f"{players} player(s)  {last}")


@game.command("link")
@CONFIG
@click.argument("name")
@click.option("--private", "mode", flag_value="private",
              help="Make the game private: its pages then need the key in this link.")
@click.option("--public", "mode", flag_value="public",
              help="Make the game's pages public again (the key stops working).")
@click.option("--new-key", is_flag=True,
              help="Give a private game a new key: links handed out before stop working.")
def link(config_path: Path, name: str, mode: str | None, new_key: bool) -> None:
    """The address of a game's pages to hand out (`mobadj web`); for a private game it
    carries the game's key."""
    import secrets

    from mobadj.judge.links import game_url

    judge = _open(config_path)
    store = judge.store
    with store.transaction():
        g = store.game(name)
        if g is None:
            raise click.ClickException(f"no game {name!r}")
        key = store.web_key(g.name)
        if mode == "public":
            store.set_web_key(g.name, None, judge.clock())
            key = None
        elif mode == "private" or (new_key and key is not None):
            if key is None or new_key:
                key = secrets.token_urlsafe(18)
                store.set_web_key(g.name, key, judge.clock())
        elif new_key:
            raise click.ClickException(f"{g.name} is public: it has no key (use --private)")
    base = judge.config.web.base_url
    url = game_url(base or "", g.name, key)
    if not base:
        url = url.lstrip("/")
    click.echo(f"{g.name} is {'private' if key else 'public'}: {url}")
    if not base:
        click.echo("(a path under the pages' address: set web.base_url in judge.yaml for the "
                   "full link)")
