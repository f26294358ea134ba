"""Entities of claims and evidence: who, which organisation, where.

`extract_entities` finds them offline, `entity_overlap` compares two texts by them, and the
alias table (`EntityAlias`, edited by admins) with the gazetteer of places says which names
are one entity, across spellings and between Cyrillic and Latin script.
"""

from evidence.entities.aliases import aliases_changed
from evidence.entities.extract import Entity, entity_overlap, extract_entities
from evidence.entities.normalize import entity_key, transliterate

__all__ = [
    "Entity",
    "aliases_changed",
    "entity_key",
    "entity_overlap",
    "extract_entities",
    "transliterate",
]
