"""``mobadj store check | backup | restore | compact``: the judge's store, cared for while
``mobadj serve`` and ``mobadj web`` run (mobadj.judge.storetools)."""

from __future__ import annotations

from pathlib import Path

import click

from mobadj.cli import main
from mobadj.cli.judge_cmd import CONFIG, warned


def _config(config_path: Path):  # noqa: ANN202 (a JudgeConfig, imported when used)
    from mobadj.judge.config import ConfigError, load_config

    try:
        return warned(load_config(config_path))
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None


@main.group()
def store() -> None:
    """The judge's store (judge.sqlite): check, back up, restore, compact; safe while
    mobadj serve and mobadj web run."""


@store.command("check")
@CONFIG
def check(config_path: Path) -> None:
    """Check the store (SQLite's integrity check), bring it up to date when an older mobadj
    made it, and say what it holds. Exit status 1 when something is wrong."""
    from mobadj.judge import storetools

    cfg = _config(config_path)
    if not cfg.db_path.exists():
        raise click.ClickException(f"{cfg.db_path}: no store yet (has the judge run?)")
    found = storetools.check(cfg.db_path)
    for line in found.facts:
        click.echo(line)
    for line in found.problems:
        click.echo(f"problem: {line}", err=True)
    if found.problems:
        raise SystemExit(1)


@store.command("backup")
@CONFIG
@click.argument("dest")
@click.option("--keep", type=click.IntRange(min=1), default=None,
              help="DEST is a folder: keep only the KEEP newest backups in it.")
@click.option("--force", is_flag=True, help="Replace DEST if it exists.")
def backup(config_path: Path, dest: str, keep: int | None, force: bool) -> None:
    """Copy the store to DEST while the judge runs (SQLite's online backup), checked.
    DEST is a file, or a folder (one that exists, or a name ending in /) where the copy
    is named by the time."""
    from mobadj.judge import storetools

    cfg = _config(config_path)
    try:
        written = storetools.backup(cfg.db_path, dest, force=force, keep=keep)
    except storetools.StoreToolError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"backup written: {written} "
               f"({storetools.megabytes(storetools.size(written))})")


@store.command("restore")
@CONFIG
@click.argument("backup_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--yes", is_flag=True, help="Do not ask before replacing the store.")
def restore(config_path: Path, backup_file: Path, yes: bool) -> None:
    """Put BACKUP_FILE in place of the store (the store it replaces is kept beside it).
    Safe while the judge runs: it carries on from the restored games."""
    from mobadj.judge import storetools

    cfg = _config(config_path)
    if cfg.db_path.exists() and not yes:
        click.confirm(f"Replace {cfg.db_path} with {backup_file}?", abort=True)
    try:
        done = storetools.restore(backup_file, cfg.db_path)
    except storetools.StoreToolError as exc:
        raise click.ClickException(str(exc)) from None
    games = done.store.games()
    done.store.close()
    if done.upgraded_from is not None:
        click.echo(f"{backup_file} was made by an older mobadj (store schema "
                   f"{done.upgraded_from}): brought up to date on the way in (the backup "
                   "itself is as it was)")
    if done.was_empty:
        click.echo(f"{cfg.db_path} was an empty file (0 bytes): nothing in it to keep")
    elif done.damage is not None:
        click.echo(f"{cfg.db_path} was damaged ({done.damage}): it is kept as {done.kept}, "
                   "byte for byte as it was, and the file was replaced whole (restart "
                   "mobadj web if it is running)")
    elif done.kept is not None:
        click.echo(f"the store it replaces is kept as {done.kept}")
    click.echo(f"restored {backup_file} into {cfg.db_path}: {len(games)} game(s)"
               + (" (" + ", ".join(f"{g.name} {g.phase or g.status}" for g in games) + ")"
                  if games else ""))


@store.command("compact")
@CONFIG
def compact(config_path: Path) -> None:
    """Drop what the judge no longer needs (mail text past mail_retention_days, old loop
    and sign-on counters), then shrink the file (VACUUM)."""
    from mobadj.judge import storetools

    cfg = _config(config_path)
    if not cfg.db_path.exists():
        raise click.ClickException(f"{cfg.db_path}: no store yet (has the judge run?)")
    try:
        before, after, dropped = storetools.compact(cfg.db_path, cfg.mail_retention_days)
    except storetools.StoreToolError as exc:
        raise click.ClickException(str(exc)) from None
    for what, n in dropped.items():
        click.echo(f"dropped: {n} {what}")
    click.echo(f"{cfg.db_path}: {storetools.megabytes(before)} -> "
               f"{storetools.megabytes(after)}")
