"""IETF RFCs and Internet-Drafts written in kramdown-rfc Markdown (YAML front matter, ``---
middle`` / ``--- back``). Family facts only; the converter is :mod:`docstrata.convert.kramdown_rfc`."""

from __future__ import annotations

from . import Profile

PROFILE = Profile(
    name="kramdown-rfc",
    formats=frozenset({"md"}),
    converter="docstrata.convert.kramdown_rfc:convert_kramdown_rfc",
    front_matter_keys=("docname", "docName"),
    text_markers=("--- middle", "--- back", "--- abstract"),
    containers=(("Appendix", 1),),  # "--- back" headings are appendices A, B …
    number_scheme="dotted",  # implied by heading level and order, as xml2rfc numbers them; back: A, A.1
    id_template="{n}",  # 1.1, A.1; an appendix itself: appendix-a
    container_id_template="{word}-{n}",
)
