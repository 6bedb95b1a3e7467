"""agent.yaml → :class:`~docstrata.config.models.AgentConfig`: every problem found reported in
one :class:`~docstrata.errors.ConfigError`, each naming its YAML path (and, through
:func:`check_file`, its line)."""

from __future__ import annotations

import difflib
import logging
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import ConfigError
from .env import _substitute_env, load_dotenv_beside
from .holodeck import (
    HOLODECK_TOP_LEVEL,
    KNOWN_TOP_LEVEL,
    _model_as_embedding_provider,
    apply_holodeck_config,
    summarize_notices,
)
from .models import (
    HOLODECK_IGNORED_FIELDS,
    OUR_TOOL_TYPES,
    UNSUPPORTED_DATABASES,
    AgentConfig,
    DatabaseConfig,
    HierarchicalDocumentToolConfig,
    VectorstoreToolConfig,
    _misspelling_of,
    accepted_keys,
)
from .yaml_text import load_yaml, yaml_line

log = logging.getLogger("docstrata")
_TOOL_MODELS = {"hierarchical_document": HierarchicalDocumentToolConfig, "vectorstore": VectorstoreToolConfig}
_ANY_TOOL_KEY = accepted_keys(HierarchicalDocumentToolConfig) | accepted_keys(VectorstoreToolConfig)


def _yaml_path(loc: tuple, tool_index_map: list[int]) -> str:
    parts: list[str] = []
    items = list(loc)
    i = 0
    while i < len(items):
        p = items[i]
        if p == "tools" and i + 1 < len(items) and isinstance(items[i + 1], int):
            parts.append(f"tools[{tool_index_map[items[i + 1]]}]")
            i += 2
            # skip the discriminator tag pydantic inserts ("hierarchical_document")
            if i < len(items) and items[i] in OUR_TOOL_TYPES:
                i += 1
            continue
        if isinstance(p, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{p}]"]
        elif p in ("function-after[_check()]",) or str(p).startswith(("function-", "str", "list[")):
            pass
        else:
            parts.append(str(p))
        i += 1
    return ".".join(parts)


def parse_config(data: Any, base_dir: str | Path = ".", file: str | None = None) -> AgentConfig:
    """Validate an already-loaded YAML mapping. Raises :class:`ConfigError` naming the YAML path;
    every error found is reported in that one exception (``problems``: (path, message) pairs;
    the message lists up to :data:`MAX_REPORTED_ERRORS` of them, one line each)."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError("the top level must be a mapping with a 'tools:' list", file=file)
    notices: list[str] = []
    problems: list[tuple[str, str]] = []  # (YAML path, message), in file order
    tools_raw = data.get("tools") or []
    if not isinstance(tools_raw, list):
        raise ConfigError("must be a list of tools", path="tools", file=file)
    from_env: dict[str, str] = {}  # YAML path → ${VAR} name
    # HoloDeck's agent-level embedding provider, and the agent's model (HoloDeck embeds with its
    # provider): ${VAR}s read once, at the path the user wrote them, not once per tool.
    shared_embedding = _substituted(data.get("embedding_provider"), "embedding_provider", from_env, problems)
    model_provider = _model_as_embedding_provider(data.get("model"))
    model_used = (
        model_provider is not None
        and shared_embedding is None
        and any(
            isinstance(t, dict)
            and t.get("type") in OUR_TOOL_TYPES
            and "embedding_provider" not in t
            and _names_hosted_model(t.get("embedding_model"), base_dir)
            for t in tools_raw
        )
    )
    model_provider = _substituted(model_provider, "model", from_env, problems) if model_used else None
    for key in data:
        if key in ("tools", "embedding_provider") or (key == "model" and model_used):
            continue
        close = _misspelling_of(str(key), KNOWN_TOP_LEVEL)
        if close:
            problems.append((str(key), f"unknown top-level key '{key}'; did you mean '{close}'?"))
        elif key in HOLODECK_TOP_LEVEL:
            notices.append(f"ignoring top-level key '{key}' (not used by docstrata)")
        else:
            notices.append(f"ignoring top-level key '{key}' (neither docstrata's nor HoloDeck's)")
    ours: list[Any] = []
    index_map: list[int] = []
    origins: list[str] = []  # per tool kept: where its embedding provider was written ("" = its own)
    for i, t in enumerate(tools_raw):
        if not isinstance(t, dict):
            problems.append((f"tools[{i}]", "each tool must be a mapping"))
            continue
        ttype = t.get("type")
        if ttype is None:
            problems.append((f"tools[{i}].type", "missing 'type' (hierarchical_document or vectorstore)"))
            continue
        close = _misspelling_of(str(ttype), OUR_TOOL_TYPES)
        if close:
            problems.append((f"tools[{i}].type", f"unknown tool type {ttype!r}; did you mean {close!r}?"))
            continue
        if ttype not in OUR_TOOL_TYPES:
            notices.append(f"ignoring tool '{t.get('name', i)}' of type '{ttype}' (not a docstrata tool type)")
            continue
        t = dict(t)
        origin = ""
        if shared_embedding is not None and "embedding_provider" not in t:
            if shared_embedding is _UNSET:
                continue  # reported once at embedding_provider
            t["embedding_provider"], origin = dict(shared_embedding), "embedding_provider"
        elif (
            model_provider and "embedding_provider" not in t and _names_hosted_model(t.get("embedding_model"), base_dir)
        ):
            if model_provider is _UNSET:
                continue  # reported once at model
            t["embedding_provider"], origin = dict(model_provider), "model"  # HoloDeck embeds with the agent's provider
        db = t.get("database")
        if isinstance(db, dict):
            extra = [
                k
                for k in db
                if (k not in DatabaseConfig.model_fields and k != "connection_string")
                or (k in ("host", "port") and db.get("provider") != "chromadb")
            ]
            if extra and db.get("provider") not in UNSUPPORTED_DATABASES:
                t["database"] = {k: v for k, v in db.items() if k not in extra}
                notices.append(
                    f"tools[{i}].database: ignored {', '.join(map(repr, extra))} "
                    f"(not used by the {db.get('provider')} store)"
                )
        for key, why in HOLODECK_IGNORED_FIELDS.items():
            if key in t:
                t.pop(key)
                notices.append(f"tools[{i}].{key}: ignored ({why})")
        known, anywhere = accepted_keys(_TOOL_MODELS[ttype]), _ANY_TOOL_KEY
        for key in [k for k in t if isinstance(k, str) and k not in anywhere and not _misspelling_of(k, known)]:
            # HoloDeck compatibility: a key docstrata does not know is skipped with a notice (as at the
            # top level); one edit from a known field is a misspelling, and another tool type's field
            # (min_score on a vectorstore) misplaced: both are left for the "did you mean"
            t.pop(key)
            notices.append(f"tools[{i}].{key}: ignored (not a setting of a {ttype} tool)")
        try:
            provider = t.pop("embedding_provider", None) if origin else None
            t = _substitute_env(t, f"tools[{i}]", from_env)
            if provider is not None:
                t["embedding_provider"] = provider
            ours.append(t)
        except ConfigError as e:
            hint = (
                _HOSTED_KEY_HINT.replace("drop embedding_model", f"remove tools[{i}].embedding_provider")
                if ".embedding_provider." in e.path
                else ""
            )
            problems.append((e.path, str(e).split(": ", 1)[-1] + hint))
            continue
        index_map.append(i)
        origins.append(origin)
    cfg = None
    try:
        cfg = AgentConfig(tools=ours)
    except ValidationError as e:
        problems += _validation_problems(e.errors(), index_map, from_env)
    if problems:
        raise _config_errors(sorted(problems, key=lambda p: _path_order(p[0])), file)
    from collections import Counter

    from ..redact import register_secret

    dupes = {n for n, c in Counter(t.name for t in cfg.tools).items() if c > 1}
    if dupes:
        raise ConfigError(f"duplicate tool name(s): {', '.join(sorted(dupes))}", path="tools", file=file)
    from ..thresholds import foreign_threshold_note

    holodeck_file = any(k in HOLODECK_TOP_LEVEL for k in data)
    for t, i, origin in zip(cfg.tools, index_map, origins):
        t._yaml_index, t._provider_origin = i, origin
        t._config_file = str(Path(file).resolve()) if file else ""
        t._threshold_note = foreign_threshold_note(t, holodeck_file)
        if t._threshold_note:
            notices.append(t._threshold_note)
        register_secret(t.database.dsn)
        register_secret(t.database.url if t.database.url and "@" in t.database.url else None)
        if w := t.weight_warning():
            notices.append(w)
        if t.database.provider == "chromadb" and not t.database.chroma_server and not t.database.path:
            notices.append(
                f"tool '{t.name}': database chromadb without url / host / connection_string runs Chroma "
                f"embedded under .docstrata/{t.name}/chroma"
            )
    cfg.base_dir = str(Path(base_dir).resolve())
    cfg.notices = notices
    return cfg


_UNSET = object()
"""Marks a shared provider whose ``${VAR}`` is not set (reported once where it was written)."""

_HOSTED_KEY_HINT = (
    "; set it (in the environment or in a .env file beside the config), or drop embedding_model "
    "to embed with the bundled local model"
)


def _substituted(value: Any, path: str, from_env: dict[str, str], problems: list, hint: str = "") -> Any:
    """``value`` with ``${VAR}`` read (:func:`_substitute_env`), or :data:`_UNSET` with the problem
    recorded under ``path`` when a variable is missing."""
    if value is None:
        return None
    try:
        return _substitute_env(value, path, from_env)
    except ConfigError as e:
        hint = hint or (
            _HOSTED_KEY_HINT if path == "model" else _HOSTED_KEY_HINT.replace("drop embedding_model", f"remove {path}")
        )
        problems.append((e.path, str(e).split(": ", 1)[-1] + hint))
        return _UNSET


MAX_REPORTED_ERRORS = 10
"""Most configuration errors listed in one :class:`ConfigError` message (all are in ``problems``)."""


def _validation_problems(errors: list[dict], index_map: list[int], from_env: dict[str, str]) -> list[tuple[str, str]]:
    """pydantic's errors as (YAML path, message) pairs. A field reported missing is left out when an
    unknown field of the same tool suggests it (the typo explains the "missing")."""
    out: list[tuple[str, str]] = []
    suggested: set[str] = set()
    for err in errors:
        if err["type"] != "extra_forbidden":
            continue
        path = _yaml_path(tuple(err["loc"]), index_map)
        hint = _did_you_mean(str(err["loc"][-1]), tuple(err["loc"]))
        out.append((path, f"unknown field '{err['loc'][-1]}'" + hint))
        if hint.startswith("; did you mean '"):
            suggested.add(path.rsplit(".", 1)[0] + "." + hint.split("'")[1])
    for err in errors:
        if err["type"] == "extra_forbidden":
            continue
        path = _yaml_path(tuple(err["loc"]), index_map)
        if err["type"] == "missing" and path in suggested:
            continue
        msg = err["msg"]
        if err["type"] == "missing":  # what to do, not only what is wrong
            msg = _missing_field_message(tuple(err["loc"]), path)
        if path in from_env or any(p.startswith(path + ".") for p in from_env if path):
            msg = f"{msg} (value from ${{{from_env.get(path, '…')}}}, not shown)"
        elif "input" in err and err["type"] not in ("missing",) and not isinstance(err["input"], dict):
            from ..redact import short

            got = err["input"]
            msg = f"{msg} (got {got if isinstance(got, (int, float, bool)) else short(got)})"
        out.append((path, msg.removeprefix("Value error, ")))
    return out


def _missing_field_message(loc: tuple, path: str) -> str:
    """``missing: add 'name: …' under tools[0].context_model (Model name)``: the field's own
    description, found by walking the config models along pydantic's ``loc``."""
    import typing

    from pydantic import BaseModel

    field_name = str(loc[-1])
    models: list[type[BaseModel]] = [AgentConfig]
    for part in loc[:-1]:
        nxt: list[type[BaseModel]] = []
        for m in models:  # the models that have this field lead on; a list index or a union tag keeps them
            if isinstance(part, str) and part in getattr(m, "model_fields", {}):
                stack = [m.model_fields[part].annotation]
                while stack:
                    t = stack.pop(0)
                    if typing.get_origin(t) is None and isinstance(t, type) and issubclass(t, BaseModel):
                        nxt.append(t)
                    else:
                        stack += [a for a in typing.get_args(t) if a is not type(None)]
        models = nxt or models
    desc = next(
        (
            m.model_fields[field_name].description
            for m in models
            if field_name in getattr(m, "model_fields", {}) and m.model_fields[field_name].description
        ),
        None,
    )
    parent = path.rsplit(".", 1)[0] if "." in path else "the top level"
    return f"missing: add '{field_name}: …' under {parent}" + (f" ({desc})" if desc else "")


def _path_order(path: str) -> tuple:
    """Sort key putting YAML paths in file order (tools[2] before tools[10])."""
    return tuple((0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.split(r"[\[\].]+", path) if x)


def _config_errors(problems: list[tuple[str, str]], file: str | None) -> ConfigError:
    """One :class:`ConfigError` for every problem: the first as its path and message, then one line
    per further problem (up to :data:`MAX_REPORTED_ERRORS` lines in all)."""
    (path, msg), rest = problems[0], problems[1:]
    if rest:
        shown = rest[: MAX_REPORTED_ERRORS - 1]
        lines = [f"  {p}: {m}" if p else f"  {m}" for p, m in shown]
        more = len(rest) - len(shown)
        msg = (
            f"{msg}\n{len(problems)} errors in all; also:\n"
            + "\n".join(lines)
            + (f"\n  … and {more} more" if more else "")
        )
    err = ConfigError(msg, path=path, file=file)
    err.problems = problems
    return err


def _names_hosted_model(name: Any, base_dir: str | Path) -> bool:
    """True for an ``embedding_model`` that can only be a hosted one: not the bundled model, not a
    Hugging Face id (``org/name``) or a path, not a folder beside the config."""
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name.startswith((".", "~")):
        return False
    from ..embed_multilingual import is_multilingual_model

    if name.lower() in ("all-minilm-l6-v2",) or is_multilingual_model(name):
        return False
    return not (Path(base_dir) / name).exists()


def _did_you_mean(field: str, loc: tuple) -> str:
    """``"; did you mean 'x'?"`` for a misspelled field, from the fields of the model it sits in."""
    models = {"hierarchical_document": HierarchicalDocumentToolConfig, "vectorstore": VectorstoreToolConfig}
    owner: type[BaseModel] = AgentConfig
    for part in loc[:-1]:
        if part in models:
            owner = models[part]
        elif isinstance(part, str) and owner is not None and part in owner.model_fields:
            ann = owner.model_fields[part].annotation
            owner = next(
                (a for a in getattr(ann, "__args__", (ann,)) if isinstance(a, type) and issubclass(a, BaseModel)), None
            )
    if owner is HierarchicalDocumentToolConfig and field == "min_similarity_score":
        return "; it is the same setting as min_score here: give one of them"
    if owner is VectorstoreToolConfig and field in ("min_score", "min_similarity", "similarity_threshold"):
        return "; did you mean 'min_similarity_score'? (the cosine similarity; min_fused_score is the fused RRF scale)"
    names = list(owner.model_fields) if owner is not None else []
    if owner in models.values():
        names += list(HOLODECK_IGNORED_FIELDS)
    close = difflib.get_close_matches(field, names, n=1, cutoff=0.7)
    return f"; did you mean '{close[0]}'?" if close else ""


def check_file(path: str | Path) -> tuple[AgentConfig | None, list[tuple[int | None, str, str]]]:
    """Validate ``path`` exactly as :func:`load_config` does (the same code: the two cannot
    disagree). Returns (the config or ``None``, problems as (line, YAML path, message) in file order)."""
    try:
        return load_config(path), []
    except ConfigError as e:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        out = []
        for where, msg in e.problems:
            out.append((yaml_line(text, where) if where else None, where, msg))
        return None, sorted(out, key=lambda p: p[0] or 0)


def _first_showing(config: Path, summary: str) -> bool:
    """Whether ``summary`` (the config's one-line notice) is new for this agent: once shown, it is
    remembered in ``.docstrata/notices-shown`` beside the config (when that folder exists, i.e.
    after the first ingest), so the same ignored setting warns once, not on every command; a
    changed config (a new notice text) warns again."""
    memo = config.resolve().parent / ".docstrata" / "notices-shown"
    line = f"{config.name}\t{summary}"
    try:
        if line in memo.read_text(encoding="utf-8").splitlines():
            return False
    except OSError:
        pass
    try:
        if memo.parent.is_dir():
            with memo.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
    except OSError:
        pass
    return True


def load_config(path: str | Path = "agent.yaml") -> AgentConfig:
    """Read and validate ``path``. Raises :class:`ConfigError` (file missing, bad YAML, bad field)."""
    import yaml

    p = Path(path)
    if not p.is_file():
        raise ConfigError("file not found", file=str(p))
    try:
        data = load_yaml(p.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise ConfigError(f"invalid YAML{where}: {getattr(e, 'problem', e)}", file=str(p)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read: {e}", file=str(p)) from None
    except ValueError as e:
        raise ConfigError(str(e), file=str(p)) from None
    load_dotenv_beside(p)
    resolved = apply_holodeck_config(data, p.resolve().parent)
    cfg = parse_config(data, base_dir=p.resolve().parent, file=str(p))
    for n in resolved:
        log.debug("%s: %s", p, n)
    summary = summarize_notices(cfg.notices)
    if summary:
        log.log(logging.WARNING if _first_showing(p, summary) else logging.DEBUG, "%s: %s", p, summary)
    for n in cfg.notices:
        log.debug("%s: %s", p, n)
    return cfg
