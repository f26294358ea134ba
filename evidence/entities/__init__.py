"""Entities of claims and evidence: who, which organisation, where.

`extract_entities` finds them offline, `entity_overlap` compares two texts by them, and the
alias table (`registry.known_names`, edited by admins) with the gazetteer of places says which
names are one entity, across spellings and between Cyrillic and Latin script.
"""

from evidence.entities.extract import Entity, entity_overlap, extract_entities

__all__ = [
    "Entity",
    "entity_overlap",
    "extract_entities",
]
