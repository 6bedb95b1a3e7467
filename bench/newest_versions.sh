#!/usr/bin/env bash
# Run the default suite against the newest versions the package index serves (issue 27, item 1).
#
# Usage: bash bench/newest_versions.sh [VENV_DIR]     (default: a new temporary folder)
#
# `constraints.txt` pins what CI and the README install; this installs without it, so it shows what
# a plain `pip install docstrata` gets today. Run it before each release: it prints every package
# whose newest version differs from constraints.txt, then the suite's result. When the suite is green,
# refresh the pins with the printed `pip freeze` command; when it is not, record what broke and the cap
# that fixes it in docs/benchmarks.md ("Newest versions") and cap the dependency in pyproject.toml.
set -uo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
venv="${1:-$(mktemp -d)/venv}"
python3 -m venv "$venv"
. "$venv/bin/activate"
python -m pip install -q --upgrade pip
pip install -q -e ".[test]" || { echo "install failed against the newest versions"; exit 1; }
echo "## packages whose installed version differs from constraints.txt"
pip freeze --exclude-editable | sed 's/+cpu$//' | sort > "$venv/newest.txt"
grep -v '^#' constraints.txt | sort > "$venv/pinned.txt"
diff "$venv/pinned.txt" "$venv/newest.txt" | grep '^[<>]' || echo "(none)"
echo "## suite"
pytest -q -p no:cacheprovider
status=$?
echo "## refresh the pins after a green run:"
echo "pip freeze --exclude-editable | grep -v '^docstrata' | sed 's/+cpu\$//'  (keep constraints.txt's header)"
exit $status
