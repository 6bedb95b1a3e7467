"""The JSON Schema of agent.yaml (``docstrata schema``): pydantic's, widened to accept every
file the loader accepts (HoloDeck's keys and tool types, string forms of ``database``)."""

from __future__ import annotations

import json

from .holodeck import HOLODECK_TOP_LEVEL, KNOWN_TOP_LEVEL
from .models import (
    HOLODECK_IGNORED_FIELDS,
    OUR_TOOL_TYPES,
    UNSUPPORTED_DATABASES,
    AgentConfig,
    HierarchicalDocumentToolConfig,
    VectorstoreToolConfig,
    accepted_keys,
    misspelling_pattern,
)

_TOOL_MODELS = {
    "HierarchicalDocumentToolConfig": HierarchicalDocumentToolConfig,
    "VectorstoreToolConfig": VectorstoreToolConfig,
}

# Fields whose description lives outside this module's Field() calls (thresholds: search.py's meaning).
_FALLBACK_DESCRIPTIONS = {
    "min_score": "Minimum score a result needs (see docs: thresholds)",
    "min_similarity_score": "Minimum similarity a result needs (HoloDeck's meaning; see docs: thresholds)",
}


def json_schema() -> str:
    """The JSON Schema of agent.yaml, as indented JSON text.

    It accepts every file :func:`parse_config` accepts: HoloDeck's top-level keys, its other tool
    types (mcp, function, prompt, …), its tool fields docstrata ignores, ``connection_string`` and
    the string forms of ``database``. Every property carries a description.
    """
    schema = AgentConfig.model_json_schema()
    for internal in ("base_dir", "notices"):
        schema["properties"].pop(internal, None)
    schema["title"] = "docstrata agent.yaml"
    defs = schema.get("$defs", {})
    # Any other key is accepted (the loader ignores it with a notice) unless it is one edit from a
    # known key: that is a misspelling, refused by both (the loader says "did you mean").
    schema["additionalProperties"] = {"description": "Another key: accepted and ignored with a notice"}
    schema["propertyNames"] = {
        "anyOf": [{"enum": list(KNOWN_TOP_LEVEL)}, {"not": {"pattern": misspelling_pattern(KNOWN_TOP_LEVEL)}}]
    }
    for key, text in HOLODECK_TOP_LEVEL.items():
        schema["properties"][key] = {"description": f"{text}; not used by docstrata"}
    schema["properties"]["embedding_provider"] = {
        "$ref": "#/$defs/EmbeddingProviderConfig",
        "description": "HoloDeck's agent-level embedding provider; applies to every tool without its own",
    }
    items = schema["properties"]["tools"]["items"]
    other = {
        "type": "object",
        "required": ["type"],
        "additionalProperties": True,
        "description": "A tool of another type (HoloDeck's mcp, function, prompt, …); skipped by docstrata",
        "properties": {
            "type": {
                "type": "string",
                "not": {"pattern": misspelling_pattern(OUR_TOOL_TYPES)},
                "description": "Tool type (not ours, nor one edit from ours: a misspelling)",
            }
        },
    }
    schema["properties"]["tools"]["items"] = {"anyOf": [items, other]}
    for name in ("HierarchicalDocumentToolConfig", "VectorstoreToolConfig"):
        props = defs[name]["properties"]
        for key, why in HOLODECK_IGNORED_FIELDS.items():
            props.setdefault(key, {"description": f"HoloDeck's; accepted and ignored: {why}"})
        # as at the top level: another key is accepted (the loader ignores it with a notice) unless
        # it is one edit from a known field, a misspelling refused by both
        known = sorted(accepted_keys(_TOOL_MODELS[name]) | set(HOLODECK_IGNORED_FIELDS))
        elsewhere = sorted(set().union(*map(accepted_keys, _TOOL_MODELS.values())) - set(known))
        defs[name]["additionalProperties"] = {"description": "Another key: accepted and ignored with a notice"}
        defs[name]["propertyNames"] = {
            "anyOf": [
                {"enum": known},
                {"allOf": [{"not": {"pattern": misspelling_pattern(known)}}, {"not": {"enum": elsewhere}}]},
            ]
        }
        if name == "HierarchicalDocumentToolConfig":
            props["min_similarity_score"] = {
                **props["min_score"],
                "description": "Same as min_score (HoloDeck's vectorstore spelling)",
            }
            defs[name]["not"] = {"required": ["min_score", "min_similarity_score"]}
            ocr = props["ocr"]
            props["ocr"] = {
                "description": ocr.get("description", ""),
                "anyOf": [
                    {"$ref": "#/$defs/OcrConfig"},
                    {"type": "boolean", "description": "false turns OCR off"},
                    {"type": "string", "enum": ["auto", "rapidocr", "tesseract"], "description": "The engine"},
                ],
            }
        db = props["database"]
        names = {
            "type": "string",
            "enum": ["embedded", "in-memory", "memory", "inmemory", "chromadb", "faiss"],
            "description": "A provider name",
        }
        if name == "VectorstoreToolConfig":  # any name config.yaml's vectorstores: may hold
            names = {
                "type": "string",
                "pattern": r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$",
                "not": {"enum": sorted(UNSUPPORTED_DATABASES)},
                "description": (
                    "A provider name (embedded, in-memory, chromadb, faiss) or the name of a store in the "
                    "vectorstores: of HoloDeck's config.yaml beside the file or in ~/.holodeck/config.yaml"
                ),
            }
        props["database"] = {
            "description": db.get("description", ""),
            "default": db.get("default"),
            "anyOf": [
                {"$ref": "#/$defs/DatabaseConfig"},
                names,
                {"type": "string", "pattern": "^postgres(ql)?://", "description": "A postgresql:// DSN"},
            ],
        }
    dbdef = defs["DatabaseConfig"]
    dbdef["properties"]["connection_string"] = {
        "type": "string",
        "description": ("HoloDeck's spelling: read as dsn (postgres), url (qdrant; chromadb when http(s)://) or path"),
    }
    dbdef["additionalProperties"] = True  # other keys are dropped with a notice, as the loader does
    dbdef["allOf"] = [
        {
            "if": {"properties": {"provider": {"const": "postgres"}}, "required": ["provider"]},
            "then": {"anyOf": [{"required": ["dsn"]}, {"required": ["connection_string"]}]},
        },
        {
            "if": {"properties": {"provider": {"const": "qdrant"}}, "required": ["provider"]},
            "then": {"anyOf": [{"required": ["url"]}, {"required": ["path"]}, {"required": ["connection_string"]}]},
        },
    ]
    for model in defs.values():  # pydantic's schema shows a field under its name, not its other spellings
        if "base_url" in model.get("properties", {}):
            model["properties"]["endpoint"] = {
                **model["properties"]["base_url"],
                "description": "HoloDeck's spelling of base_url",
            }
    for model in defs.values():
        for key, prop in model.get("properties", {}).items():
            if not prop.get("description"):
                prop["description"] = _FALLBACK_DESCRIPTIONS.get(key, key.replace("_", " "))
    return json.dumps(schema, indent=2)
