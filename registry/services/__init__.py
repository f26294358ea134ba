"""The registry's writes: the domain registry (`domains`) and the entity alias table
(`aliases`). Reads are in `registry.selectors`."""

from registry.services.aliases import (
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
from registry.services.domains import (
    domain_create,
    domain_delete,
    domain_update,
    domains_export,
    domains_import,
    domains_import_plan,
)

__all__ = [
    "AliasCsvError",
    "AliasError",
    "AliasExists",
    "alias_create",
    "alias_delete",
    "alias_update",
    "aliases_export",
    "aliases_import",
    "aliases_import_plan",
    "domain_create",
    "domain_delete",
    "domain_update",
    "domains_export",
    "domains_import",
    "domains_import_plan",
]
