"""Record metadata filters written as short expressions (the CLI's ``--filter`` and the
playground's filter box) → the ``filters`` mapping of ``search`` (:func:`docstrata.tools.parse_metadata_filters`).

Syntax, one expression per condition (several = AND; two bounds on one field make a range)::

    category=shoes          string equality (a number-like value compares as a number: price=18)
    category=shoes,socks    any of the values
    price<50  price<=50  price>10  price>=10

Raises :class:`~docstrata.search.QueryError` naming the expression for anything else.
"""

from __future__ import annotations

import re

from .search import QueryError

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
    return {name: (spec["eq"] if list(spec) == ["eq"] else spec["in"] if list(spec) == ["in"] else spec)
            for name, spec in out.items()}
