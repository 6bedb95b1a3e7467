"""The repository's own static checks (issue 32): ``.ci/docstrings.py`` finds every public
function, class and method without a docstring, and none in ``src/docstrata`` lacks one."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECK = ROOT / ".ci" / "docstrings.py"


def _run(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True, text=True)


def test_docstring_check_names_each_undocumented_public_definition(tmp_path):
    (tmp_path / "mod.py").write_text(textwrap.dedent('''
        """A module."""
        from typing import overload

        def documented():
            """Yes."""

        def undocumented():
            pass

        def _private():
            pass

        class Public:
            def method(self):
                pass

            @property
            def value(self):
                """The value."""

            @value.setter
            def value(self, v):
                pass

            def _helper(self):
                pass

            def __repr__(self):
                return ""

        class _Private:
            def method(self):
                pass

        @overload
        def f(x: int) -> int: ...
        def f(x):
            """F."""
            return x
    '''), encoding="utf-8")
    out = _run(tmp_path)
    assert out.returncode == 1
    found = {line.split(": ", 1)[1] for line in out.stdout.splitlines()}
    assert found == {"undocumented", "class Public", "Public.method"}


def test_every_public_definition_in_docstrata_has_a_docstring():
    out = _run(ROOT / "src" / "docstrata")
    assert out.returncode == 0, out.stdout
