"""The evidence app's writes: evidence read from pages and snippets (`collect`), one statement
found twice kept once (`duplicates`) and evidence from published fact-checks (`factchecks`).
The domain registry and the entity alias table are the registry app's."""

from evidence.services.collect import (
    Lead,
    SnippetCheck,
    collect_evidence,
    snippet_evidence,
    snippet_verify,
    syndication_mark,
)
from evidence.services.duplicates import duplicates_mark
from evidence.services.factchecks import factcheck_evidence_record

__all__ = [
    "Lead",
    "SnippetCheck",
    "collect_evidence",
    "duplicates_mark",
    "factcheck_evidence_record",
    "snippet_evidence",
    "snippet_verify",
    "syndication_mark",
]
