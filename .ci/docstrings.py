"""Every public function and class in src/docstrata has a docstring (issue 32).

Public: a module-level ``def`` or ``class`` whose name does not start with ``_``, and a method of
such a class whose name does not start with ``_`` (properties included; a property's setter or
deleter shares the getter's docstring, and ``typing.overload`` stubs are skipped). Prints each
missing one as ``path:line: name`` and exits 1 when there is any.

    python .ci/docstrings.py [ROOT]   # ROOT defaults to src/docstrata
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def _decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    names = set()
    for d in node.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        if isinstance(d, ast.Attribute):
            names.add(d.attr)
        elif isinstance(d, ast.Name):
            names.add(d.id)
    return names


def missing_docstrings(root: Path) -> list[str]:
    """``path:line: qualified name`` of each public function, class or method without a docstring."""
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if node.name.startswith("_"):
                continue
            if isinstance(node, ast.ClassDef):
                if ast.get_docstring(node) is None:
                    out.append(f"{path}:{node.lineno}: class {node.name}")
                for item in node.body:
                    if (isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_")
                            and not _decorator_names(item) & {"setter", "deleter", "overload"}
                            and ast.get_docstring(item) is None):
                        out.append(f"{path}:{item.lineno}: {node.name}.{item.name}")
            elif "overload" not in _decorator_names(node) and ast.get_docstring(node) is None:
                out.append(f"{path}:{node.lineno}: {node.name}")
    return out


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "src/docstrata")
    missing = missing_docstrings(root)
    for line in missing:
        print(line)
    if missing:
        print(f"{len(missing)} public functions, classes or methods have no docstring", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
