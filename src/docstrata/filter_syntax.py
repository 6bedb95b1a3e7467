"""Record metadata filters written as short expressions (the CLI's ``--filter`` and the
playground's filter box) → the ``filters`` mapping of ``search`` (:func:`parse_metadata_filters`).

Syntax, one expression per condition (several = AND; two bounds on one field make a range)::

    category=shoes          string equality (a number-like value compares as a number: price=18)
    category=shoes,socks    any of the values
    price<50  price<=50  price>10  price>=10

Raises :class:`~docstrata.search.QueryError` naming the expression for anything else.
"""

from __future__ import annotations

import re

from .search import QueryError
from .store.base import MetaCondition

_EXPR = re.compile(r"^\s*([^\s=<>!,\"]+)\s*(<=|>=|<|>|=)\s*(.*?)\s*$")
_RANGE = {"<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
SYNTAX = "FIELD=VALUE, FIELD=A,B or FIELD<N (also <=, >, >=)"


def _value(text: str) -> str | float | int:
    try:
        num = float(text)
    except ValueError:
        return text
    return int(num) if num.is_integer() and re.fullmatch(r"[+-]?\d+", text) else num


def parse_filter_expressions(exprs: list[str] | tuple[str, ...], option: str = "--filter") -> dict:
    """``["city=Lyon,Berlin", "price>=10", "price<100"]`` →
    ``{"city": ["Lyon", "Berlin"], "price": {"gte": 10, "lt": 100}}``.

    ``option`` names the source in errors (``--filter 'price<<5': ...``)."""
    out: dict = {}
    for expr in exprs:
        m = _EXPR.match(expr or "")
        if not m or not m.group(3):
            raise QueryError(f"{option} {expr!r}: expected {SYNTAX}")
        name, op, raw = m.groups()
        spec = out.setdefault(name, {})
        if op == "=":
            values = [v.strip() for v in raw.split(",")]
            if any(not v for v in values):
                raise QueryError(f"{option} {expr!r}: empty value in the list")
            if "in" in spec or "eq" in spec:
                raise QueryError(f"{option} {expr!r}: {name} already has an equality condition")
            if len(values) == 1:
                spec["eq"] = _value(values[0])
            else:
                spec["in"] = [_value(v) for v in values]
        else:
            num = _value(raw)
            if isinstance(num, str):
                raise QueryError(f"{option} {expr!r}: {op} needs a number, got {raw!r}")
            key = _RANGE[op]
            if key in spec:
                raise QueryError(f"{option} {expr!r}: {name} already has a {op} bound")
            spec[key] = num
    return {
        name: (spec["eq"] if list(spec) == ["eq"] else spec["in"] if list(spec) == ["in"] else spec)
        for name, spec in out.items()
    }


_RANGE_OPS = {"gt", "gte", "lt", "lte"}


def parse_metadata_filters(filters: dict | None) -> tuple[MetaCondition, ...]:
    """``{"category": "shoes", "price": {"gte": 10, "lt": 100}, "colour": ["red", "blue"]}`` →
    conditions (see :class:`~docstrata.store.base.MetaCondition`). A string value means string
    equality (the tools make it ignore case: :func:`~docstrata.scoping.any_case`), a number numeric
    equality, a list any of them, a mapping the operators ``eq``,
    ``in``, ``gt``, ``gte``, ``lt``, ``lte``. Raises :class:`QueryError` naming the bad field."""
    from .store.base import parse_number

    if not filters:
        return ()
    if not isinstance(filters, dict):
        raise QueryError(f"filters must be a mapping of field → value, got {type(filters).__name__}")
    out = []
    for name, spec in filters.items():
        if not isinstance(name, str) or not name or '"' in name:
            raise QueryError(f"filters: bad field name {name!r}")
        ops = spec if isinstance(spec, dict) else {"in" if isinstance(spec, list) else "eq": spec}
        values: list[str] = []
        numbers: list[float] = []
        bounds: dict[str, float] = {}
        for op, arg in ops.items():
            if op in ("eq", "in"):
                items = arg if isinstance(arg, list) else [arg]
                if op == "in" and not isinstance(arg, list):
                    raise QueryError(f"filters.{name}.in must be a list, got {arg!r}")
                for item in items:
                    if isinstance(item, bool) or item is None or isinstance(item, (dict, list)):
                        raise QueryError(f"filters.{name}: {item!r} is not a string or a number")
                    if isinstance(item, (int, float)):
                        numbers.append(float(item))
                    else:
                        values.append(str(item))
            elif op in _RANGE_OPS:
                num = parse_number(arg) if not isinstance(arg, str) else parse_number(arg)
                if num is None:
                    raise QueryError(f"filters.{name}.{op} must be a number, got {arg!r}")
                bounds[op] = num
            else:
                raise QueryError(f"filters.{name}: unknown operator {op!r} (use eq, in, gt, gte, lt, lte)")
        if values and numbers:  # a mixed list: compare everything as text
            values += [f"{n:g}" for n in numbers]
            numbers = []
        out.append(MetaCondition(name, tuple(values), tuple(numbers), **bounds))
    return tuple(out)
