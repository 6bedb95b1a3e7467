"""Secrets never leave: the one redactor applied to errors, log lines, spans and MCP answers.

:func:`redact` removes, from any text:

* the password of a URL's user info: ``postgresql://user:pa ss@w@rd@host/db`` →
  ``postgresql://user:***@host/db`` (everything up to the *last* ``@`` on the line is taken
  as the password, so ``@`` and spaces inside it are covered; over-redaction is preferred);
* ``password=…`` / ``passwd=`` / ``pwd=`` / ``sslpassword=`` / ``token=`` / ``secret=`` /
  ``api_key=`` / ``apikey=`` values, in a key=value DSN or a URL query (``?password=x&…``),
  quoted (``'pa ss'``, ``"pa ss"``) or not (an unquoted value runs to the next ``key=``, ``&``,
  ``;`` or the end of the line, so a space inside it is covered);
* ``Authorization: Bearer …`` values;
* every value registered with :func:`register_secret` (``${VAR}`` values whose name looks
  secret, the passwords inside DSN/URL fields, the bearer token), wherever it appears. A
  connection string's host, port, user and database are not secret and stay visible.

:func:`install_log_redaction` makes every log record pass through :func:`redact` (a record
factory, so records of any logger, library ones included, are covered); the record's
arguments — where file names and document fields come in — pass through
:func:`~docstrata.escaping.one_line` first, so none can forge a log line.
"""

from __future__ import annotations

import logging
import os
import re
import threading

from .escaping import escape_json_output, escape_terminal, one_line  # noqa: F401 - re-exported (their old home)

MASK = "***"

_URL_USERINFO = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://)([^:@/\s]*):([^\n]*)@")
_KEY_VALUE = re.compile(
    r"(?i)\b(password|passwd|pwd|sslpassword|secret|token|api[_-]?key|access[_-]?key)(\s*=\s*)"
    r"('(?:[^'\\\n]|\\.|'')*'?|\"(?:[^\"\\\n]|\\.)*\"?|[^&;\n]*?(?=\s+[A-Za-z_][\w.-]*\s*=|[&;,)\]}\n]|$))"
)
_BEARER = re.compile(r"(?i)\b(bearer\s+)(?=[^\s\"',]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{6,}")
_SECRET_NAME = re.compile(r"(?i)pass|secret|token|key|dsn|credential|auth|conn")

_lock = threading.Lock()
_secrets: set[str] = set()
_MIN_SECRET_LEN = 4


_CONNECTION = re.compile(r"^\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*://|[A-Za-z_]\w*\s*=)")


def register_secret(value: str | None) -> None:
    """Redact ``value`` wherever it appears from now on; for a connection string (a URL or a
    ``key=value`` DSN) only its password / token parts, so host, port, user and database stay
    readable in errors (``postgresql://app:***@db:5432/x``). Values shorter than 4 characters are
    not registered (they would mask ordinary text)."""
    if not value or len(value) < _MIN_SECRET_LEN:
        return
    parts = [] if _CONNECTION.match(value) else [value]
    for pw in _passwords_in(value):
        pieces = pw.split("@")  # parsers disagree on which '@' ends the password: register every split
        parts += (
            [pw]
            + ["@".join(pieces[:i]) for i in range(1, len(pieces))]
            + ["@".join(pieces[i:]) for i in range(1, len(pieces))]
        )
    with _lock:
        _secrets.update(p for p in parts if len(p) >= _MIN_SECRET_LEN)


def secret_env_name(name: str) -> bool:
    """True when an environment variable's name suggests a secret (PASSWORD, TOKEN, API_KEY, DSN…)."""
    return bool(_SECRET_NAME.search(name))


def _passwords_in(dsn: str) -> list[str]:
    out = []
    m = _URL_USERINFO.search(dsn)
    if m:
        out.append(m.group(3))
    for km in _KEY_VALUE.finditer(dsn):
        out.append(km.group(3).strip("'\""))
    return out


def redact(text: object) -> str:
    """``text`` (any object, via ``str``) with passwords, tokens and registered secrets replaced by ``***``."""
    s = str(text)
    if not s:
        return s
    with _lock:
        known = sorted(_secrets, key=len, reverse=True)
    for secret in known:
        if secret in s:
            s = s.replace(secret, MASK)
    s = _URL_USERINFO.sub(lambda m: f"{m.group(1)}{m.group(2)}:{MASK}@", s)
    s = _KEY_VALUE.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}", s)
    return _BEARER.sub(lambda m: f"{m.group(1)}{MASK}", s)


def short(text: object, limit: int = 80) -> str:
    """``repr``-style short prefix of a user-supplied value for error messages: at most ``limit``
    characters, with the full length stated when cut (a 1 MB argument never comes back whole)."""
    s = str(text)
    if len(s) <= limit:
        return repr(s)
    return repr(s[:limit]) + f"… ({len(s)} characters)"


_installed = False


def _log_arg(value):
    """A log record's argument with :func:`~docstrata.escaping.one_line` applied to text (a
    string, path or exception: where file names and document fields come in); numbers and other
    objects are left for their own ``%`` conversion."""
    return one_line(value) if isinstance(value, (str, os.PathLike, BaseException)) else value


def install_log_redaction() -> None:
    """Route every ``logging`` record through :func:`redact` (idempotent)."""
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
    factory = logging.getLogRecordFactory()

    def make(*args, **kwargs):
        record = factory(*args, **kwargs)
        if record.args:  # a name or field put into a log line can never forge a line of its own
            record.args = (
                {k: _log_arg(v) for k, v in record.args.items()}
                if isinstance(record.args, dict)
                else tuple(_log_arg(v) for v in record.args)
            )
        try:
            msg = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record is left for logging to report
            return record
        if record.exc_info and record.exc_info[1] is not None:
            msg += "\n" + redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info, record.exc_text = None, None
        record.msg, record.args = redact(msg), ()
        return record

    logging.setLogRecordFactory(make)
