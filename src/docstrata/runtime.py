"""Process-wide settings every entry point (CLI, MCP server) applies before loading models."""

from __future__ import annotations

import logging
import os
import sys


def quiet_offline_environment() -> None:
    """No hub look-ups, no progress bars, library warnings only, all logging to stderr, every log
    record redacted and its arguments escaped to one line (:func:`~docstrata.redact.install_log_redaction`).

    Variables the user has set are left as they are.
    """
    for name, value in (
        ("HF_HUB_OFFLINE", "1"),
        ("TRANSFORMERS_OFFLINE", "1"),
        ("TOKENIZERS_PARALLELISM", "false"),
        ("TRANSFORMERS_VERBOSITY", "error"),
        ("HF_HUB_DISABLE_PROGRESS_BARS", "1"),
        ("TQDM_DISABLE", "1"),
    ):
        os.environ.setdefault(name, value)
    from .redact import install_log_redaction

    install_log_redaction()
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
