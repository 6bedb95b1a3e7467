"""The search playground (issue 19): a local page over the configured tools, served from the same
process and index. ``api`` turns tool calls into JSON-ready dicts; ``server`` serves them and the
static page in ``static/`` (plain HTML, CSS and JavaScript, shipped in the package)."""
