"""IETF RFCs and Internet-Drafts written in mmark Markdown (a ``%%%`` TOML title block,
``{mainmatter}`` / ``{backmatter}`` divisions, ``.#`` special sections). Family facts only; the
converter is :mod:`docstrata.convert.mmark`."""

from __future__ import annotations

from . import Profile

PROFILE = Profile(
    name="mmark",
    formats=frozenset({"md"}),
    converter="docstrata.convert.mmark:convert_mmark",
    front_matter_fence="%%%",  # the title block, TOML
    front_matter_keys=("title", "Title"),
    text_markers=("{mainmatter}", "{backmatter}", ".# Abstract"),
    containers=(("Appendix", 1),),  # "{backmatter}" headings are appendices A, B …
    number_scheme="dotted",  # implied by heading level and order, as xml2rfc numbers them; back: A, A.1
    id_template="{n}",  # 1.1, A.1; an appendix itself: appendix-a
    container_id_template="{word}-{n}",
)
