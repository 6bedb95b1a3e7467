"""YAML text: a bounded safe load (no alias bombs, no deep nesting) and the line of a YAML path."""

from __future__ import annotations

import re
from typing import Any

MAX_YAML_NODES = 2_000_000
"""Most YAML nodes a config may expand to once aliases are followed (an anchor bomb of a few
hundred bytes expands to billions)."""


def load_yaml(text: str) -> Any:
    """Parse YAML ``text`` safely with libyaml's C loader where available, refusing a document
    whose aliases expand to more than :data:`MAX_YAML_NODES` nodes (``ValueError``)."""
    import yaml

    loader_cls = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = loader_cls(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        expanded: dict[int, int] = {}
        open_nodes: set[int] = set()

        def size(n) -> int:  # nodes after alias expansion; each distinct node is measured once
            key = id(n)
            if key in expanded:
                return expanded[key]
            if key in open_nodes:
                raise ValueError("a YAML alias refers to a node that contains it (a recursive alias)")
            open_nodes.add(key)
            if isinstance(n, yaml.SequenceNode):
                total = 1 + sum(size(c) for c in n.value)
            elif isinstance(n, yaml.MappingNode):
                total = 1 + sum(size(k) + size(v) for k, v in n.value)
            else:
                total = 1
            if total > MAX_YAML_NODES:
                raise ValueError(
                    f"YAML aliases expand to more than {MAX_YAML_NODES:,} nodes "
                    "(an alias/anchor bomb?); write the values out or remove the aliases"
                )
            open_nodes.discard(key)
            expanded[key] = total
            return total

        import sys

        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            size(node)
        except RecursionError:
            raise ValueError("YAML nested too deeply") from None
        finally:
            sys.setrecursionlimit(old)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def yaml_line(text: str, path: str) -> int | None:
    """The 1-based line of the YAML path ``path`` (``tools[0].database.provider``, as
    :class:`ConfigError` names it) in the YAML ``text``: the line of its key, or of the closest
    enclosing key that exists (a missing field is reported at its tool). ``None`` if unparsable."""
    import yaml

    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return None
    line = None
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if getattr(k, "value", None) == part), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and part.startswith("["):
            i = int(part[1:-1])
            if i >= len(node.value):
                break
            node = node.value[i]
            line = node.start_mark.line + 1
        else:
            break
    return line
