"""One exception tree (issue 32): every exception class a docstrata module defines derives from
:class:`docstrata.errors.DocstrataError`, so ``except DocstrataError`` catches every error docstrata
raises on purpose. Modules are imported from the package itself (``pkgutil.walk_packages``), so a
new module with its own exception class is checked without editing this file."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import docstrata
from docstrata.errors import DocstrataError

# Exceptions that are deliberately outside the tree, each with the reason it never reaches a caller.
OUTSIDE_THE_TREE = {
    "docstrata.limits._Overtime": "the time limit's own signal: a BaseException so that a library's "
                                  "`except Exception` cannot swallow it; time_limit turns it into ConversionError",
}

# Modules whose optional dependency may be absent from an install: skipped only when that import fails.
OPTIONAL = {"docstrata.store.chroma", "docstrata.store.qdrant", "docstrata.store.postgres", "docstrata.store.faiss_store"}


def _exception_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(docstrata.__path__, prefix="docstrata."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            if info.name in OPTIONAL:
                continue
            raise
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__.startswith("docstrata"):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


def test_every_docstrata_exception_belongs_to_the_tree():
    classes = _exception_classes()
    # the walk reaches the classes defined in modules other than errors.py
    assert "docstrata.errors.QueryError" in classes and "docstrata.limits._Overtime" in classes
    outside = sorted(name for name, cls in classes.items()
                     if not issubclass(cls, DocstrataError) and name not in OUTSIDE_THE_TREE)
    assert not outside, f"exception classes outside the DocstrataError tree: {outside}"


def test_old_import_paths_name_the_same_classes():
    from docstrata import errors, llm, locking, search

    assert search.QueryError is errors.QueryError
    assert locking.LockTimeout is errors.LockTimeout
    assert llm.LLMRequestError is errors.LLMRequestError
    assert docstrata.QueryError is errors.QueryError


def test_query_error_is_caught_as_value_error_and_as_docstrata_error():
    """Callers that caught ValueError before the tree held QueryError still catch it."""
    from docstrata.paging import check_max_chars

    for caught in (ValueError, DocstrataError):
        with pytest.raises(caught, match="max_chars"):
            check_max_chars(-5)


def test_errors_module_documents_every_class_in_the_tree():
    from docstrata import errors

    tree = [name for name, cls in vars(errors).items() if isinstance(cls, type) and issubclass(cls, DocstrataError)]
    assert len(tree) >= 10
    missing = [name for name in tree if name not in errors.__doc__]
    assert not missing, f"errors.py's docstring does not describe {missing}"
