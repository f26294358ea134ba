"""The evidence app's writes: the domain registry (`domains`), evidence read from pages and
snippets (`collect`), one statement found twice kept once (`duplicates`) and evidence from
published fact-checks (`factchecks`). Reads are in `evidence.selectors`."""

from evidence.services.collect import (
    Lead,
    SnippetCheck,
    collect_evidence,
    snippet_evidence,
    snippet_verify,
    syndication_mark,
)
from evidence.services.domains import (
    domain_create,
    domain_delete,
    domain_update,
    domains_export,
    domains_import,
)
from evidence.services.duplicates import duplicates_mark
from evidence.services.factchecks import factcheck_evidence_record

__all__ = [
    "Lead",
    "SnippetCheck",
    "collect_evidence",
    "domain_create",
    "domain_delete",
    "domain_update",
    "domains_export",
    "domains_import",
    "duplicates_mark",
    "factcheck_evidence_record",
    "snippet_evidence",
    "snippet_verify",
    "syndication_mark",
]
