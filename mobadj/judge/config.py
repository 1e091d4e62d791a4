"""The judge's configuration: ``judge.yaml`` for everything public, environment variables for
secrets.  A password written into the file is refused, so a config can be shared safely."""

from __future__ import annotations

import difflib
import os
import re
import ssl
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from mobadj.errors import JudgeServiceError

SECRET_KEYS = {"password", "pass", "passwd", "pwd", "passphrase", "secret", "token",
               "gm_password"}
#: a name a ``password_env`` may hold (an environment variable's)
VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
SERVER_KEYS = ("host", "port", "tls", "user", "password_env", "folder", "idle", "poll_seconds",
               "timeout", "ca_file", "expunge_after_days", "auth", "token_command")
#: the keys of each part of judge.yaml ("": its top level); any other is warned of
KEYS: dict[str, tuple[str, ...]] = {
    "": ("judge", "imap", "smtp", "log", "web", "game_defaults"),
    "judge": ("name", "address", "data_dir", "timezone", "gm_addresses", "max_body_bytes",
              "replies_per_hour", "no_command_window_minutes", "mail_retention_days"),
    "imap": SERVER_KEYS,
    "smtp": SERVER_KEYS,
    "log": ("file", "level", "max_mb", "keep", "levels"),
    "web": ("base_url", "host", "port", "play"),
}


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
    no_command_minutes: float = 60.0  # one "no command found" reply per address and text this often
    web: WebConfig = field(default_factory=WebConfig)
    log: LogConfig = field(default_factory=LogConfig)
    # the text of mail the judge sent is kept this long, then only its record (who, when,
    # subject, Message-ID, digest); attachments are never kept once delivered
    mail_retention_days: float = 60.0
    # what was read but not used (an unknown key, with the known one it resembles); the
    # commands show these lines on standard error
    warnings: tuple[str, ...] = ()

    @property
    def db_path(self) -> Path:
        return self.data_dir / "judge.sqlite"


def _require(section: dict[str, Any], key: str, where: str, kind: type = str) -> Any:
    if key not in section:
        raise ConfigError(f"{where}: missing key '{key}'")
    if kind is int:
        return _whole(section, key, where, 0)
    return _text(section, key, where, "")


def _mapping(data: Any, where: str, keys: str) -> dict[str, Any]:
    """A part of the file that must be a mapping (empty when left out)."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping of {keys}, got {_shown(data)}")
    return data


def _shown(value: Any) -> str:
    """A value as a message shows it: short, and what a list or mapping is called."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)[:80]


def _text(section: dict[str, Any], key: str, where: str, default: str) -> str:
    value = section.get(key)
    if value is None:
        return default
    if isinstance(value, list | dict):
        raise ConfigError(f"{where}.{key}: expected a text, got {_shown(value)}")
    return str(value)


def _whole(section: dict[str, Any], key: str, where: str, default: int,
           expected: str = "a number") -> int:
    """A whole number (``port: 993``, ``"993"``); anything else is refused with what was
    expected (``port: imap``, ``200KB``)."""
    value = section.get(key, default)
    if not isinstance(value, bool):
        try:
            number = float(value)
            if number.is_integer():
                return int(number)
        except (TypeError, ValueError, OverflowError):
            pass
    raise ConfigError(f"{where}.{key}: expected {expected}, got {_shown(value)}")


def _flag(section: dict[str, Any], key: str, where: str, default: bool) -> bool:
    """true or false (yes/no, on/off); ``idle: maybe`` is refused, not read as true."""
    value = section.get(key, default)
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("true", "yes", "on"):
        return True
    if word in ("false", "no", "off"):
        return False
    raise ConfigError(f"{where}.{key}: expected true or false, got {_shown(value)}")


def _unknown_keys(section: dict[str, Any], where: str) -> list[str]:
    """A warning for each key of ``section`` the judge does not read, with the known key it
    most resembles: a misspelt ``gm_adresses`` would leave the judge without GMs."""
    known = KEYS[where]
    out = []
    for key in section:
        if key in known:
            continue
        close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
        hint = f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(known)})"
        out.append(f"{where + '.' if where else ''}{str(key)[:60]}: unknown key, ignored{hint}")
    return out


def _no_secrets(data: Any, where: str) -> None:
    """A secret written into the file is refused (without showing it), with where it goes."""
    if isinstance(data, dict):
        for key, value in data.items():
            name = f"{where}.{key}" if where else str(key)
            if str(key).lower() in SECRET_KEYS:
                raise ConfigError(f"{name}: secrets do not belong in the file; "
                                  f"{_secret_advice(where, str(key))}")
            _no_secrets(value, name)


def _secret_advice(where: str, key: str) -> str:
    if where in ("imap", "smtp") and key.lower() == "token":
        return "give the command that prints an access token with 'token_command' instead"
    if where in ("imap", "smtp"):
        return (f"put it in an environment variable and name that variable with "
                f"'password_env' instead (e.g. password_env: MOBADJ_{where.upper()}_PASSWORD)")
    return ("the judge reads passwords only from the environment variables that "
            "imap.password_env and smtp.password_env name")


def _password_env(data: dict[str, Any], where: str) -> str:
    """The name of the variable that holds the password.  What is not a variable's name is
    refused without being shown: it is most likely the password itself."""
    default = f"MOBADJ_{where.upper()}_PASSWORD"
    name = _text(data, "password_env", where, default).strip()
    if not VARIABLE_NAME.fullmatch(name):
        raise ConfigError(
            f"{where}.password_env: what is written there does not look like the name of an "
            f"environment variable (letters, digits and _, e.g. {default}); was the password "
            f"itself put there? Put the password in that variable, never in the file")
    return name


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
    data = _mapping(data, where, "host, port, tls, user, password_env")
    tls = str(data.get("tls", default_tls)).lower()
    tls = {"true": "ssl", "yes": "ssl", "false": "none", "no": "none"}.get(tls, tls)
    if tls not in ("ssl", "starttls", "none"):
        raise ConfigError(f"{where}.tls: expected ssl, starttls or none, got {tls!r}")
    auth, command = _auth(data, where)
    port = _whole(data, "port", where, default_port, "a port number 1-65535")
    if not 0 < port < 65536:
        raise ConfigError(f"{where}.port: expected a port number 1-65535, got {port}")
    return ServerConfig(
        host=_require(data, "host", where),
        port=port,
        tls=tls,
        user=_text(data, "user", where, ""),
        password_env=_password_env(data, where),
        folder=_text(data, "folder", where, "INBOX"),
        idle=_flag(data, "idle", where, True),
        poll_seconds=_positive(data, "poll_seconds", where) or 60.0,
        timeout=_positive(data, "timeout", where) or 30.0,
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


def _path(value: Any, where: str, base: Path) -> Path:
    """A path of the file (``~`` is the home folder; a relative one is taken from the
    file's folder), read alike for every key that names one."""
    if isinstance(value, list | dict):
        raise ConfigError(f"{where}: expected a path, got {_shown(value)}")
    path = Path(str(value)).expanduser()
    return path if path.is_absolute() else base / path


def _log(data: Any, base: Path) -> LogConfig:
    data = _mapping(data, "log", "file, level, max_mb, keep, levels")
    if not data:
        return LogConfig()
    file = None
    if data.get("file") not in (None, ""):
        file = _path(data["file"], "log.file", base)
        if file.is_dir():
            raise ConfigError(f"log.file: {str(file)!r} is a folder; expected the log file's "
                              f"name, e.g. {str(Path(str(data['file'])) / 'judge.log')!r}")
    levels = data.get("levels") or {}
    if not isinstance(levels, dict):
        raise ConfigError("log.levels: expected a mapping of logger name to level, e.g. "
                          "mobadj.judge.mailbox: debug")
    keep = _whole(data, "keep", "log", 5, "a number of old files, 0 or more")
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
    data = _mapping(data, "web", "base_url, host, port, play")
    base = data.get("base_url")
    if base in (None, ""):
        base = None
    else:
        base = str(base).strip().rstrip("/")
        if not base.startswith(("http://", "https://")) or "?" in base or "#" in base:
            raise ConfigError(f"web.base_url: expected an http:// or https:// address "
                              f"(no query), got {data.get('base_url')!r}")
    port = _whole(data, "port", "web", 8080)
    if not 0 < port < 65536:
        raise ConfigError(f"web.port: expected a port number 1-65535, got {port}")
    play = data.get("play", True)
    if not isinstance(play, bool):
        raise ConfigError(f"web.play: expected true or false, got {play!r}")
    return WebConfig(base_url=base, host=_text(data, "host", "web", "127.0.0.1"), port=port,
                     play=play)


def load_config(path: str | Path) -> JudgeConfig:
    """Read and check ``judge.yaml``; relative ``data_dir`` is taken from the file's folder.
    Errors and warnings start with the file's name, as it was given."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except IsADirectoryError:
        raise ConfigError(f"cannot read {path}: it is a folder, not a judge.yaml") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    try:
        config = config_from_data(data, base=path.parent)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return replace(config, warnings=tuple(f"{path}: {w}" for w in config.warnings))


def config_from_data(data: dict[str, Any], base: Path = Path(".")) -> JudgeConfig:
    """Build a :class:`JudgeConfig` from the parsed YAML mapping."""
    if not isinstance(data, dict):
        raise ConfigError("expected a mapping with 'judge', 'imap' and 'smtp'")
    _no_secrets(data, "")
    warnings = _unknown_keys(data, "")
    for part in ("judge", "imap", "smtp", "log", "web"):
        if isinstance(data.get(part), dict):
            warnings += _unknown_keys(data[part], part)
    judge = _mapping(data.get("judge"), "judge", "name, address, data_dir, timezone, "
                     "gm_addresses, ...")
    address = _require(judge, "address", "judge")
    if "@" not in address:
        raise ConfigError(f"judge.address: expected an email address, got {address!r}")
    data_dir = _path(judge.get("data_dir", "judge-data"), "judge.data_dir", base)
    tz = _text(judge, "timezone", "judge", "UTC")
    try:
        zone = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"judge.timezone: unknown time zone {tz!r} (e.g. Europe/London)"
        ) from None
    defaults, more = _game_defaults(data.get("game_defaults"), zone)
    max_body = _whole(judge, "max_body_bytes", "judge", 200_000, "a number of bytes, e.g. 200000")
    if max_body <= 0:
        raise ConfigError(f"judge.max_body_bytes: expected a number of bytes above 0, "
                          f"got {max_body}")
    return JudgeConfig(
        name=_text(judge, "name", "judge", "mobadj judge"),
        address=address,
        data_dir=data_dir,
        timezone=tz,
        imap=_server(data.get("imap"), "imap", 993, "ssl", base),
        smtp=_server(data.get("smtp"), "smtp", 587, "starttls", base),
        gm_addresses=_addresses(judge.get("gm_addresses")),
        game_defaults=defaults,
        max_body_bytes=max_body,
        replies_per_hour=int(_positive(judge, "replies_per_hour", "judge") or 20),
        no_command_minutes=_positive(judge, "no_command_window_minutes", "judge") or 60.0,
        web=_web(data.get("web")),
        log=_log(data.get("log"), base),
        mail_retention_days=_positive(judge, "mail_retention_days", "judge") or 60.0,
        warnings=tuple(warnings + more),
    )


def _addresses(value: Any) -> tuple[str, ...]:
    """``gm_addresses``: a list, or one address (or several, with commas) written as a
    text, not taken letter by letter."""
    if value in (None, ""):
        return ()
    if isinstance(value, dict):
        raise ConfigError(f"judge.gm_addresses: expected a list of email addresses, got "
                          f"{_shown(value)}")
    words = value if isinstance(value, list) else str(value).replace(",", " ").split()
    out = []
    for word in words:
        address = str(word).strip().lower()
        if "@" not in address or isinstance(word, list | dict):
            raise ConfigError(f"judge.gm_addresses: expected email addresses, got "
                              f"{_shown(word)}")
        out.append(address)
    return tuple(out)


def _game_defaults(data: Any, zone: ZoneInfo) -> tuple[dict[str, Any], list[str]]:
    """The options every new game starts with, each of the judge's checked as ``SET`` checks
    it (so that a game never meets ``deadline_hours: 48h`` at its deadline), and a warning
    for a name close to one of the judge's options (the others may be a map's)."""
    from mobadj.judge.base import JudgeError
    from mobadj.judge.gm import JUDGE_OPTIONS, check_options

    defaults = dict(_mapping(data, "game_defaults", "option: value (e.g. deadline_hours: 48)"))
    try:
        check_options(defaults, zone)
    except JudgeError as exc:
        raise ConfigError(f"game_defaults: {exc}") from None
    warnings = []
    for key in defaults:
        close = difflib.get_close_matches(str(key), JUDGE_OPTIONS, n=1, cutoff=0.8)
        if key not in JUDGE_OPTIONS and close:
            warnings.append(f"game_defaults.{str(key)[:60]}: not an option of the judge "
                            f"(did you mean '{close[0]}'?)")
    return defaults, warnings
