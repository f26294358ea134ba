"""The evidence app's writes: the domain registry (`domains`), the entity alias table
(`aliases`), evidence read from pages and snippets (`collect`, with the search `leads` it reads,
the `snippets` it checks against their pages and the reprints it marks in `syndication`), one
statement found twice kept once (`duplicates`) and evidence from published fact-checks
(`factchecks`). Reads are in `evidence.selectors`."""

from evidence.services.aliases import (
    AliasCsvError,
    AliasError,
    AliasExists,
    alias_create,
    alias_delete,
    alias_update,
    aliases_export,
    aliases_import,
    aliases_import_plan,
)
from evidence.services.collect import collect_evidence, snippet_evidence
from evidence.services.domains import (
    domain_create,
    domain_delete,
    domain_update,
    domains_export,
    domains_import,
)
from evidence.services.duplicates import duplicates_mark
from evidence.services.factchecks import factcheck_evidence_record
from evidence.services.leads import Lead
from evidence.services.snippets import SnippetCheck, snippet_verify
from evidence.services.syndication import syndication_mark

__all__ = [
    "AliasCsvError",
    "AliasError",
    "AliasExists",
    "Lead",
    "SnippetCheck",
    "alias_create",
    "alias_delete",
    "alias_update",
    "aliases_export",
    "aliases_import",
    "aliases_import_plan",
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
