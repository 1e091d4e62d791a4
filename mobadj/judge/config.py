"""The judge's configuration: ``judge.yaml`` for everything public, environment variables for
secrets.  A password written into the file is refused, so a config can be shared safely."""

from __future__ import annotations

import os
import ssl
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from mobadj.errors import JudgeServiceError

SECRET_KEYS = {"password", "pass", "secret", "token", "gm_password"}


class ConfigError(JudgeServiceError, ValueError):
    """A judge.yaml that cannot be used; the message names the key and what was expected."""


class MailServerError(JudgeServiceError, ConnectionError):
    """A mail server the judge cannot use (unreachable, refusing the login); a network error
    (so the serve loop backs off and retries) whose one-line message names the server."""

    def __init__(self, kind: str, server: ServerConfig, reason: str) -> None:
        super().__init__(f"{kind} server {server.host}:{server.port}: {reason}")


class TLSTrustError(MailServerError):
    """A mail server whose TLS certificate is not trusted; the message says which setting
    to fix."""

    def __init__(self, kind: str, server: ServerConfig, reason: str) -> None:
        where = kind.lower()
        hint = (f"check {where}.ca_file" if server.ca_file else
                f"set {where}.ca_file to the CA certificate that signed it")
        super().__init__(kind, server, f"TLS certificate not trusted ({reason}); {hint}")


@dataclass(frozen=True)
class ServerConfig:
    """One mail server (IMAP in, SMTP out); ``tls`` is ``ssl``, ``starttls`` or ``none``.
    ``ca_file`` (optional) is a PEM file of CA certificates trusted instead of the system's,
    for a server with a private or self-signed certificate."""

    host: str
    port: int
    tls: str
    user: str
    password_env: str
    folder: str = "INBOX"
    idle: bool = True
    poll_seconds: float = 60.0
    timeout: float = 30.0
    ca_file: str | None = None
    expunge_after_days: float | None = None  # IMAP: delete handled mail this old (None: keep)
    auth: str = "password"  # password | xoauth2 (an OAuth2 access token from token_command)
    token_command: str | tuple[str, ...] | None = None  # prints a fresh access token
    base_dir: str = "."  # judge.yaml's folder: where the token command runs

    def ssl_context(self) -> ssl.SSLContext:
        """The TLS context for this server: certificate and host name always checked, against
        ``ca_file`` when given, else the system's trusted CAs."""
        return ssl.create_default_context(cafile=self.ca_file)

    @property
    def uses_oauth(self) -> bool:
        return self.auth == "xoauth2"

    @property
    def password(self) -> str:
        """The secret, read from the environment each time (never kept in the file)."""
        value = os.environ.get(self.password_env)
        if value is None:
            raise ConfigError(f"environment variable {self.password_env} is not set")
        return value


@dataclass(frozen=True)
class WebConfig:
    """The game pages (``mobadj web``): where they are served, and the public address that
    results mails link to (``base_url``; None: mails carry no link); ``play``: players and
    the GM may sign in and play on them (else they are read only)."""

    base_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8080
    play: bool = True


@dataclass(frozen=True)
class LogConfig:
    """Where ``mobadj serve`` (and ``mobadj web``) log: standard error, and with ``file`` a
    log file rotated at ``max_mb`` megabytes, ``keep`` old files kept; ``level`` for every
    logger, ``levels`` for some by name (``mobadj.judge.mailbox: debug``)."""

    file: Path | None = None
    level: str | None = None  # None: info in the file, warnings on standard error
    max_mb: float = 10.0
    keep: int = 5
    levels: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class JudgeConfig:
    """Everything ``mobadj serve`` needs."""

    name: str
    address: str
    data_dir: Path
    timezone: str
    imap: ServerConfig | None
    smtp: ServerConfig | None
    gm_addresses: tuple[str, ...] = ()
    game_defaults: dict[str, Any] = field(default_factory=dict)
    max_body_bytes: int = 200_000
    replies_per_hour: int = 20  # per address; then one notice, and silence until it drops
    no_command_minutes: float = 60.0  # one "no command found" reply per address this often
    web: WebConfig = field(default_factory=WebConfig)
    log: LogConfig = field(default_factory=LogConfig)
    # the text of mail the judge sent is kept this long, then only its record (who, when,
    # subject, Message-ID, digest); attachments are never kept once delivered
    mail_retention_days: float = 60.0

    @property
    def db_path(self) -> Path:
        return self.data_dir / "judge.sqlite"


def _require(section: dict[str, Any], key: str, where: str, kind: type = str) -> Any:
    if key not in section:
        raise ConfigError(f"{where}: missing key '{key}'")
    value = section[key]
    if kind is int:
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}.{key}: expected a number, got {value!r}") from None
    return str(value)


def _no_secrets(data: Any, where: str) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            if str(key).lower() in SECRET_KEYS:
                raise ConfigError(
                    f"{where}.{key}: secrets do not belong in the file; "
                    f"name an environment variable with '{key}_env' instead"
                )
            _no_secrets(value, f"{where}.{key}")


def _ca_file(data: dict[str, Any], where: str, base: Path) -> str | None:
    if data.get("ca_file") in (None, ""):
        return None
    path = Path(str(data["ca_file"])).expanduser()
    if not path.is_absolute():
        path = base / path
    if not path.is_file():
        raise ConfigError(f"{where}.ca_file: no such file {str(path)!r} "
                          "(expected a PEM file of CA certificates)")
    return str(path)


def _server(data: Any, where: str, default_port: int, default_tls: str,
            base: Path = Path(".")) -> ServerConfig | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping of host, port, tls, user, password_env")
    tls = str(data.get("tls", default_tls)).lower()
    tls = {"true": "ssl", "yes": "ssl", "false": "none", "no": "none"}.get(tls, tls)
    if tls not in ("ssl", "starttls", "none"):
        raise ConfigError(f"{where}.tls: expected ssl, starttls or none, got {tls!r}")
    auth, command = _auth(data, where)
    return ServerConfig(
        host=_require(data, "host", where),
        port=int(data.get("port", default_port)),
        tls=tls,
        user=str(data.get("user", "")),
        password_env=str(data.get("password_env", f"MOBADJ_{where.upper()}_PASSWORD")),
        folder=str(data.get("folder", "INBOX")),
        idle=bool(data.get("idle", True)),
        poll_seconds=float(data.get("poll_seconds", 60)),
        timeout=float(data.get("timeout", 30)),
        ca_file=_ca_file(data, where, base),
        expunge_after_days=_positive(data, "expunge_after_days", where),
        auth=auth,
        token_command=command,
        base_dir=str(base),
    )


def _auth(data: dict[str, Any], where: str) -> tuple[str, str | tuple[str, ...] | None]:
    """How the judge logs in to a server: ``password`` (from ``password_env``), or
    ``xoauth2`` with an access token printed by ``token_command`` (a shell command line,
    or a list of words run without a shell)."""
    auth = str(data.get("auth", "password")).strip().lower().replace("-", "")
    auth = {"oauth2": "xoauth2", "oauth": "xoauth2"}.get(auth, auth)
    if auth not in ("password", "xoauth2"):
        raise ConfigError(f"{where}.auth: expected password or xoauth2, got {auth!r}")
    raw = data.get("token_command")
    command: str | tuple[str, ...] | None
    if raw in (None, "", []):
        command = None
    elif isinstance(raw, list) and all(isinstance(w, str | int | float) for w in raw):
        command = tuple(str(w) for w in raw)
    elif isinstance(raw, str):
        command = raw
    else:
        raise ConfigError(f"{where}.token_command: expected a command line or a list of "
                          f"words, got {raw!r}")
    if auth == "xoauth2" and command is None:
        raise ConfigError(f"{where}.token_command: auth xoauth2 needs the command that "
                          "prints an access token (docs/gm-guide.md, \"Mail providers\")")
    if auth == "xoauth2" and not str(data.get("user", "")):
        raise ConfigError(f"{where}.user: auth xoauth2 needs the account's address")
    return auth, command


LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def _level(value: Any, where: str) -> str:
    level = str(value).strip().lower()
    if level not in LOG_LEVELS:
        raise ConfigError(f"{where}: expected one of {', '.join(LOG_LEVELS)}, got {value!r}")
    return level


def _log(data: Any, base: Path) -> LogConfig:
    if data is None:
        return LogConfig()
    if not isinstance(data, dict):
        raise ConfigError("log: expected a mapping of file, level, max_mb, keep, levels")
    file = None
    if data.get("file") not in (None, ""):
        file = Path(str(data["file"])).expanduser()
        if not file.is_absolute():
            file = base / file
    levels = data.get("levels") or {}
    if not isinstance(levels, dict):
        raise ConfigError("log.levels: expected a mapping of logger name to level, e.g. "
                          "mobadj.judge.mailbox: debug")
    keep = _require(data, "keep", "log", int) if "keep" in data else 5
    if keep < 0:
        raise ConfigError(f"log.keep: expected a number of old files, 0 or more, got {keep}")
    return LogConfig(
        file=file,
        level=_level(data["level"], "log.level") if data.get("level") else None,
        max_mb=_positive(data, "max_mb", "log") or 10.0, keep=keep,
        levels=tuple((str(k), _level(v, f"log.levels.{k}")) for k, v in levels.items()))


def _positive(data: dict[str, Any], key: str, where: str) -> float | None:
    """An optional number of days (or hours ...) that must be above zero."""
    value = data.get(key)
    if value in (None, "", False):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = 0.0
    if number <= 0:
        raise ConfigError(f"{where}.{key}: expected a number above 0, got {value!r}")
    return number


def _web(data: Any) -> WebConfig:
    if data is None:
        return WebConfig()
    if not isinstance(data, dict):
        raise ConfigError("web: expected a mapping of base_url, host, port, play")
    base = data.get("base_url")
    if base in (None, ""):
        base = None
    else:
        base = str(base).strip().rstrip("/")
        if not base.startswith(("http://", "https://")) or "?" in base or "#" in base:
            raise ConfigError(f"web.base_url: expected an http:// or https:// address "
                              f"(no query), got {data.get('base_url')!r}")
    port = _require(data, "port", "web", int) if "port" in data else 8080
    if not 0 < port < 65536:
        raise ConfigError(f"web.port: expected a port number 1-65535, got {port}")
    play = data.get("play", True)
    if not isinstance(play, bool):
        raise ConfigError(f"web.play: expected true or false, got {play!r}")
    return WebConfig(base_url=base, host=str(data.get("host", "127.0.0.1")), port=port,
                     play=play)


def load_config(path: str | Path) -> JudgeConfig:
    """Read and check ``judge.yaml``; relative ``data_dir`` is taken from the file's folder."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    return config_from_data(data, base=path.parent)


def config_from_data(data: dict[str, Any], base: Path = Path(".")) -> JudgeConfig:
    """Build a :class:`JudgeConfig` from the parsed YAML mapping."""
    if not isinstance(data, dict):
        raise ConfigError("judge.yaml: expected a mapping with 'judge', 'imap' and 'smtp'")
    _no_secrets(data, "judge.yaml")
    judge = data.get("judge") or {}
    address = _require(judge, "address", "judge")
    if "@" not in address:
        raise ConfigError(f"judge.address: expected an email address, got {address!r}")
    data_dir = Path(str(judge.get("data_dir", "judge-data")))
    if not data_dir.is_absolute():
        data_dir = base / data_dir
    tz = str(judge.get("timezone", "UTC"))
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"judge.timezone: unknown time zone {tz!r} (e.g. Europe/London)"
        ) from None
    gms = judge.get("gm_addresses") or []
    return JudgeConfig(
        name=str(judge.get("name", "mobadj judge")),
        address=address,
        data_dir=data_dir,
        timezone=tz,
        imap=_server(data.get("imap"), "imap", 993, "ssl", base),
        smtp=_server(data.get("smtp"), "smtp", 587, "starttls", base),
        gm_addresses=tuple(str(a).lower() for a in gms),
        game_defaults=dict(data.get("game_defaults") or {}),
        max_body_bytes=int(judge.get("max_body_bytes", 200_000)),
        replies_per_hour=int(_positive(judge, "replies_per_hour", "judge") or 20),
        no_command_minutes=_positive(judge, "no_command_window_minutes", "judge") or 60.0,
        web=_web(data.get("web")),
        log=_log(data.get("log"), base),
        mail_retention_days=_positive(judge, "mail_retention_days", "judge") or 60.0,
    )
