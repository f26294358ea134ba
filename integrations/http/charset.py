"""What encoding a response body is in: BOM, then the Content-Type charset, then an HTML meta
charset, then a guess, each checked against the bytes."""

from __future__ import annotations

import codecs
import re

import charset_normalizer

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_META_CHARSET = re.compile(
    rb"""<meta\b[^>]*?charset\s*=\s*["']?\s*([a-z0-9_.:-]+)""", re.IGNORECASE
)
_CHARSET_PARAM = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.IGNORECASE)
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
# The legacy encodings of the WHATWG Encoding Standard, by their Python codec names.
_WEB_LEGACY_CODECS = (
    "cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258",
    "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_5", "iso8859_6", "iso8859_7", "iso8859_8",
    "iso8859_10", "iso8859_13", "iso8859_14", "iso8859_15", "iso8859_16",
    "koi8_r", "koi8_u", "cp866", "mac_roman", "mac_cyrillic", "cp874",
    "gb18030", "big5", "euc_jp", "iso2022_jp", "shift_jis", "euc_kr", "utf_16_be", "utf_16_le",
)  # fmt: skip
_SNIFF_BYTES = 4096


def _codec(label: str) -> str | None:
    try:
        return codecs.lookup(label.strip()).name
    except LookupError:
        return None


def _decodes(content: bytes, codec: str) -> bool:
    # Incremental and not final, so a body cut at the byte cap mid-character still counts.
    try:
        codecs.getincrementaldecoder(codec)().decode(content, final=False)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def _web_codec(codec: str, content: bytes) -> str:
    # Browsers read latin-1 and ASCII labels as windows-1252 (WHATWG Encoding), and pages rely
    # on it for curly quotes and dashes in the 0x80-0x9F range.
    if codec in ("iso8859-1", "latin-1", "ascii") and _decodes(content, "cp1252"):
        return "cp1252"
    return codec


def detect_encoding(content: bytes, content_type_header: str) -> str:
    """Byte order mark, then the Content-Type charset, then a <meta> declaration in the first
    4 KiB of HTML, then charset_normalizer; utf-8 when nothing fits. A declaration the bytes
    do not decode under is ignored, since servers and templates often disagree."""
    for bom, bom_codec in _BOMS:
        if content.startswith(bom):
            return bom_codec
    media_type = content_type_header.split(";", 1)[0].strip().lower()
    labels: list[str] = []
    if match := _CHARSET_PARAM.search(content_type_header):
        labels.append(match.group(1))
    meta = _META_CHARSET.search(content[:_SNIFF_BYTES])
    if meta and (media_type in _HTML_TYPES or not media_type):
        labels.append(meta.group(1).decode("ascii"))
    if media_type == "application/json" or media_type.endswith("+json"):
        labels.append("utf-8")  # RFC 8259: JSON exchanged between systems is UTF-8
    for label in labels:
        declared = _codec(label)
        if declared is not None and _decodes(content, declared):
            return _web_codec(declared, content)
    if not content:
        return "utf-8"
    if _decodes(content, "utf-8"):
        return "utf-8"
    return _guess_legacy_codec(content) or "utf-8"


def _guess_legacy_codec(content: bytes) -> str | None:
    # Only encodings a browser can decode are candidates: a page in anything else cannot render
    # anywhere, and left free charset_normalizer reads French windows-1252 as mac-latin2.
    matches = charset_normalizer.from_bytes(content, cp_isolation=list(_WEB_LEGACY_CODECS))
    best = matches.best()
    if best is None:
        return None
    # On short Western text several single-byte code pages tie; windows-1252 is by far the most
    # common of them on the web (and the WHATWG fallback), so it wins a tie.
    for match in matches:
        if match.encoding == "cp1252" and match.chaos <= best.chaos + 0.01:
            return "cp1252"
    return _codec(best.encoding)
