"""The evidence app's writes: evidence read from pages and snippets (`collect`, with the search
`leads` it reads, the `snippets` it checks against their pages and the reprints it marks in
`syndication`), one statement found twice kept once (`duplicates`) and evidence from published
fact-checks (`factchecks`). Reads are in `evidence.selectors`. The domain registry and the
entity alias table are the registry app's."""

from evidence.factcheck import factcheck_lookup
from evidence.services.collect import collect_evidence, snippet_evidence
from evidence.services.duplicates import duplicates_mark
from evidence.services.factchecks import factcheck_evidence_record
from evidence.services.leads import Lead
from evidence.services.retention import evidence_expire, pages_expire
from evidence.services.snippets import SnippetCheck, snippet_verify
from evidence.services.syndication import syndication_mark
from evidence.services.warm import readers_warm

__all__ = [
    "Lead",
    "SnippetCheck",
    "collect_evidence",
    "duplicates_mark",
    "evidence_expire",
    "factcheck_evidence_record",
    "factcheck_lookup",
    "pages_expire",
    "readers_warm",
    "snippet_evidence",
    "snippet_verify",
    "syndication_mark",
]
