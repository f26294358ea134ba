"""Named entities of a claim, a snippet or a quote, offline and without a model.

A name is a run of capitalised words (Latin or Cyrillic, with "of" / "the" / "de" inside a
run that goes on), or an acronym. Each run is read against the alias table and the gazetteer
of places, longest known part first, so "Президент України Володимир Зеленський" gives the
place Ukraine and the person after the title. What is left is classified by its words: an
organisation's ("Ministry", "Bank", "рада"), a document's or an event's ("Act", "Summit"),
a title before it (a person), two or three plain names (a person), else "other".

A word that only starts a sentence is a name only when it is known, an acronym, or written
capitalised elsewhere in the text: "Officials said" names nobody.

Keys fold spelling (see `registry.entity_keys.entity_key`) and, for names that are not in a table,
inflection: "Зеленського", "Зеленский" and "Zelensky" share a key, and a person is keyed by
the surname, so a later "Zelensky" is the same person as "Volodymyr Zelensky".
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace

from claimcheck.textutil import STOPWORDS
from evidence.entities.gazetteer import place_named
from evidence.entities.inflection import case_stem, lemma_candidates
from registry.entity_keys import entity_key, is_cyrillic, transliterate
from registry.known_names import known_name
from registry.models import EntityKind

_SENTENCE = re.compile(r"(?<=[.!?…])\s+|\n+")
_TOKEN = re.compile(r"[^\W\d_][\w'’.-]*[^\W_]|[^\W\d_]", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$")
_CONNECTORS = frozenset({"of", "for", "the", "de", "la", "du", "von", "van", "der", "and"})
_SLAVIC_STOPWORDS = frozenset(
    """в у на з із зі до від для про та і й а але що як це той ця цей які який яка по за при
    во со из от для про и а но что как это тот эта этот которые который которая по за при не
    ні ни вже уже також также він вона вони он она они його її их її""".split()
)
_TITLES = frozenset(
    """president prime minister chancellor mr mrs ms dr senator governor mayor king queen pope
    general secretary premier chairman chairwoman ceo spokesman spokeswoman
    президент прем'єр прем’єр премьер міністр министр мер губернатор канцлер генсек пан пані
    господин госпожа спікер спикер голова глава""".split()
)
_ORGANIZATION_WORDS = frozenset(
    """ministry council bank commission agency university institute committee parliament party
    court company corporation corp inc ltd llc plc group association union organization
    organisation department office authority police army forces navy service fund foundation
    board assembly senate congress government administration bureau center centre network
    reuters press news times post journal школа
    motors motor automotive airways airlines air rail railway railways logistics shipping
    energy electric oil gas petroleum holdings holding industries capital partners
    ventures investments insurance pharmaceuticals pharma labs laboratories technologies
    systems solutions software media studios entertainment telecom communications enterprises
    trust exchange hospital clinic college academy limited incorporated gmbh ag sa nv bv llp
    міністерство министерство рада совет банк комісія комиссия агентство університет
    университет інститут институт партія партия суд компанія компания уряд правительство дума
    служба фонд відомство ведомство адміністрація администрация поліція полиция армія
    армия група группа холдинг корпорація корпорация концерн завод""".split()
)
# Words that end a company's name ("Halden Rail"): two such names joined by "and" are two
# organisations ("Halden Rail and Nordfrakt Logistics"), where "Department of Health and Human
# Services" stays one.
_COMPANY_ENDS = _ORGANIZATION_WORDS - {"union", "council", "court", "party", "government"}
_OTHER_WORDS = frozenset(
    """act law regulation directive treaty agreement summit games cup championship award prize
    day report plan programme program strategy bill accord protocol declaration levy tax tariff
    закон угода соглашение саміт саммит договір договор""".split()
)
_PLACE_WORDS = frozenset(
    """oblast region province city county district state republic область регион район
    місто город""".split()
)
# Capitalised in English, but dates, not names.
_CALENDAR = frozenset(
    name.lower()
    for name in (*calendar.month_name[1:], *calendar.month_abbr[1:], *calendar.day_name)
)
_KIND_WEIGHT = {
    EntityKind.PERSON: 1.0,
    EntityKind.ORGANIZATION: 1.0,
    EntityKind.PLACE: 1.0,
    EntityKind.OTHER: 0.5,
}
_VOWELS_AT_END = re.compile(r"[aeiou]+$")
# Acronyms: two to six capitals (EU, NATO, ЄС, ООН), maybe with one lower-case letter (UNESCO).
_ACRONYM = re.compile(r"^[A-ZА-ЯЁІЇЄҐ]{2,6}$")


@dataclass(frozen=True)
class Entity:
    text: str
    """As written in the text."""
    name: str
    """The name it is searched by: the alias table's or gazetteer's English name when known,
    else the text (Cyrillic transliterated)."""
    kind: str
    key: str

    @property
    def weight(self) -> float:
        return _KIND_WEIGHT.get(EntityKind(self.kind), 0.5)


def _stem_key(name: str, *, language: str = "") -> str:
    """A key that also folds inflection: each word loses its case ending (Cyrillic) or its
    final vowels (Latin, where transliterations end a name in -y, -i or -iy)."""
    parts = []
    for word in name.split():
        word = case_stem(word)
        key = entity_key(word, language=language)
        stripped = _VOWELS_AT_END.sub("", key)
        parts.append(stripped if len(stripped) >= 4 else key)
    return " ".join(parts)


def _known(words: list[str], *, language: str, cities: bool = True) -> Entity | None:
    """The alias table's or the gazetteer's entity for these words, trying the nominative
    forms an inflected Cyrillic word may stand for. `cities=False` leaves out the gazetteer's
    towns, whose other names include first names and surnames (Volodymyr is a city too)."""
    text = " ".join(words)
    if len(words) == 1:
        forms = lemma_candidates(words[0])
    else:
        forms = [" ".join([*words[:-1], last]) for last in lemma_candidates(words[-1])]
    for form in forms:
        key = entity_key(form, language=language)
        found = known_name(key)
        if found is not None:
            # People are keyed by surname, as unknown people are ("Zelensky said").
            keyed = found.name.split()[-1] if found.kind == EntityKind.PERSON else found.name
            return Entity(text, found.name, found.kind, _stem_key(keyed))
        place = place_named(key, language=language)
        if place is not None and (cities or place.country):
            return Entity(text, place.name, EntityKind.PLACE, _stem_key(place.name))
    return None


def _classify(words: list[str], *, after_title: bool) -> str:
    lowered = {w.lower().strip(".") for w in words}
    if lowered & _ORGANIZATION_WORDS:
        return EntityKind.ORGANIZATION
    if lowered & _PLACE_WORDS:
        return EntityKind.PLACE
    if lowered & _OTHER_WORDS:
        return EntityKind.OTHER
    if after_title or 2 <= len(words) <= 3:
        return EntityKind.PERSON
    return EntityKind.OTHER


def _unknown(words: list[str], *, after_title: bool, language: str) -> Entity:
    text = " ".join(words)
    kind = _classify(words, after_title=after_title)
    # A person is named by the surname on later mentions ("Zelensky said").
    keyed = words[-1:] if kind == EntityKind.PERSON else words
    name = transliterate(text, language=language) if is_cyrillic(text) else text
    return Entity(text, name, kind, _stem_key(" ".join(keyed), language=language))


def _name(words: list[str], *, after_title: bool, language: str) -> Entity:
    """A run of words between titles and sure names: known as a whole, or unknown."""
    known = _known(words, language=language, cities=len(words) == 1 or not after_title)
    if known is not None and not (after_title and known.kind == EntityKind.PLACE):
        return known
    return _unknown(words, after_title=after_title, language=language)


def _company_pair(run: list[str]) -> tuple[list[str], list[str]] | None:
    """The two names of "Halden Rail and Nordfrakt Logistics", each ending in a company's
    word; None for any other run."""
    lowered = [w.lower() for w in run]
    if "and" not in lowered:
        return None
    cut = lowered.index("and")
    left, right = run[:cut], run[cut + 1 :]
    if len(left) < 2 or len(right) < 2:
        return None
    if left[-1].lower() in _COMPANY_ENDS and right[-1].lower() in _COMPANY_ENDS:
        return left, right
    return None


def _segment(
    run: list[str], *, after_title: bool, language: str, common_first: bool = False
) -> list[Entity]:
    """One run of capitalised words as entities. A run known as a whole is one entity; one
    with an organisation's or a document's word is one too, plus the sure names inside it
    ("Kyiv City Council" also names Kyiv). Otherwise the run is cut at titles and at sure
    names (the alias table, countries), and each piece between is one name."""
    halves = _company_pair(run)
    if halves is not None:
        return [
            entity
            for half in halves
            for entity in _segment(half, after_title=False, language=language)
        ]
    whole = _known(run, language=language)
    lowered = {w.lower() for w in run}
    if whole is None and lowered & (_ORGANIZATION_WORDS | _OTHER_WORDS):
        whole = _unknown(run, after_title=False, language=language)
    if whole is not None:
        if whole.kind in (EntityKind.PLACE, EntityKind.PERSON) or len(run) == 1:
            return [whole]
        # "Kyiv City Council" is one organisation; the places it names count too.
        named = (w for w in run if w.lower() not in _ORGANIZATION_WORDS | _OTHER_WORDS)
        inner = [_known([w], language=language) for w in named if w.lower() not in _CONNECTORS]
        return [whole, *(e for e in inner if e is not None and e.kind == EntityKind.PLACE)]
    entities: list[Entity] = []
    pending: list[str] = []

    def flush() -> None:
        while pending and pending[-1].lower() in _CONNECTORS:
            pending.pop()
        if len(pending) == 1 and common_first and pending[0] == run[0]:
            # "Порт Одессы": the sentence's first word, capitalised only for that, is a name
            # only when the alias table or a country says so.
            known = _known(pending, language=language, cities=False)
            entities.extend([known] if known is not None else [])
        elif pending:
            entities.append(_name(pending, after_title=after_title, language=language))
        pending.clear()

    for word in run:
        if word.lower() in _TITLES:
            flush()
            after_title = True
            continue
        certain = _known([word], language=language, cities=False)
        if certain is not None:
            if certain.kind == EntityKind.PERSON and pending:
                # "Володимир Зеленський": a first name before a known surname is the person's.
                certain = replace(certain, text=" ".join([*pending, word]))
                pending.clear()
            flush()
            entities.append(certain)
            continue
        pending.append(word)
    flush()
    return entities


def _is_capitalised(token: str) -> bool:
    return token[:1].isupper()


@dataclass
class _Run:
    words: list[str]
    starts_sentence: bool
    after_title: bool


def _runs(tokens: list[str]) -> list[_Run | Entity]:
    """A sentence's capitalised runs in order, with acronyms as entities of their own."""
    out: list[_Run | Entity] = []
    run: _Run | None = None
    after_title = False
    for position, token in enumerate(tokens):
        lowered = token.lower()
        if _ACRONYM.match(token):
            run = None
            out.append(
                Entity(token, transliterate(token), EntityKind.ORGANIZATION, entity_key(token))
            )
            continue
        stop = lowered in STOPWORDS or lowered in _SLAVIC_STOPWORDS or lowered in _CALENDAR
        if _is_capitalised(token) and not stop:
            if run is None:
                run = _Run([], starts_sentence=position == 0, after_title=after_title)
                out.append(run)
            possessive = _POSSESSIVE.search(token)
            if possessive is not None:
                # "Halvard Energy's Nordvik": the name ends at its possessive.
                run.words.append(token[: possessive.start()])
                run = None
                continue
            run.words.append(token)
            continue
        if run is not None and lowered in _CONNECTORS:
            # "Council of the European Union": connectors go on into a capitalised word.
            ahead = position + 1
            while ahead < len(tokens) and tokens[ahead].lower() in _CONNECTORS:
                ahead += 1
            following = tokens[ahead] if ahead < len(tokens) else ""
            if _is_capitalised(following) and following.lower() not in STOPWORDS:
                run.words.append(token)
                continue
        run = None
        after_title = lowered in _TITLES
    return out


def extract_entities(text: str, *, language: str = "") -> list[Entity]:
    """The entities a text names, each key once, in order of first mention."""
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    tokenized = [_TOKEN.findall(sentence) for sentence in sentences]
    mid_sentence = {t.lower() for tokens in tokenized for t in tokens[1:] if _is_capitalised(t)}
    found: dict[str, Entity] = {}
    for tokens in tokenized:
        for item in _runs(tokens):
            if isinstance(item, Entity):
                acronym = _known([item.text], language=language) or item
                found.setdefault(acronym.key, acronym)
                continue
            words = item.words
            while words and words[-1].lower() in _CONNECTORS:
                words.pop()
            if not words:
                continue
            if item.starts_sentence and len(words) == 1 and words[0].lower() not in mid_sentence:
                # "Officials said": a word that only starts a sentence is a name if known.
                known = _known(words, language=language)
                entities = [known] if known is not None else []
            else:
                entities = _segment(
                    words,
                    after_title=item.after_title,
                    language=language,
                    common_first=item.starts_sentence and words[0].lower() not in mid_sentence,
                )
            for entity in entities:
                found.setdefault(entity.key, entity)
    return list(found.values())


def entity_overlap(claim: list[Entity], other: list[Entity]) -> float | None:
    """How far two texts name the same entities: weighted intersection over union of their
    keys, people, organisations and places counting twice as much as other names. None when
    the claim names no entity (the measure says nothing then)."""
    if not claim:
        return None
    left = {e.key: e.weight for e in claim}
    right = {e.key: e.weight for e in other}
    union = left.keys() | right.keys()
    total = sum(max(left.get(k, 0.0), right.get(k, 0.0)) for k in union)
    shared = sum(max(left[k], right[k]) for k in left.keys() & right.keys())
    return round(shared / total, 3) if total else None
