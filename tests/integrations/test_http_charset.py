"""The outbound HTTP response's text: the charset declared in the header or the page, and what
is done when the declaration is missing, unknown or wrong.
"""

from __future__ import annotations

import httpx
import pytest
import respx

from integrations import http

pytestmark = pytest.mark.usefixtures("fake_dns")


@respx.mock
def test_a_latin1_page_declared_in_the_header_decodes() -> None:
    body = "<html><body>Café à Genève, façade</body></html>".encode("latin-1")
    respx.get("https://public.example.org/fr").mock(
        return_value=httpx.Response(
            200, headers={"Content-Type": "text/html; charset=ISO-8859-1"}, content=body
        )
    )
    response = http.get("https://public.example.org/fr")
    assert "Café à Genève, façade" in response.text
    assert response.content_type == "text/html"


@respx.mock
def test_a_windows_1251_page_declared_only_in_meta_decodes() -> None:
    text = "Москва — столица России"
    body = f'<html><head><meta charset="windows-1251"></head><body>{text}</body></html>'
    respx.get("https://public.example.org/ru").mock(
        return_value=httpx.Response(
            200, headers={"Content-Type": "text/html"}, content=body.encode("cp1251")
        )
    )
    response = http.get("https://public.example.org/ru")
    assert response.encoding == "cp1251"
    assert text in response.text


@respx.mock
def test_an_http_equiv_declaration_is_honoured() -> None:
    text = "Ελληνικά κείμενα"
    body = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-7">'
        f"</head><body>{text}</body></html>"
    )
    respx.get("https://public.example.org/el").mock(
        return_value=httpx.Response(
            200, headers={"Content-Type": "text/html"}, content=body.encode("iso-8859-7")
        )
    )
    assert text in http.get("https://public.example.org/el").text


@respx.mock
def test_an_unknown_declared_charset_falls_back_to_utf8() -> None:
    text = "Zürich, São Paulo, Kraków"
    respx.get("https://public.example.org/u").mock(
        return_value=httpx.Response(
            200,
            headers={"Content-Type": "text/html; charset=no-such-charset"},
            content=f"<p>{text}</p>".encode(),
        )
    )
    response = http.get("https://public.example.org/u")
    assert response.encoding == "utf-8"
    assert text in response.text


@pytest.mark.parametrize(
    "text",
    [
        "Le café était fermé à cause de la grève générale.",
        "El niño comió paella en Sevilla, ¿verdad? Sí, señor.",
    ],
)
@respx.mock
def test_a_wrong_utf8_declaration_on_windows_1252_bytes_is_not_trusted(text: str) -> None:
    respx.get("https://public.example.org/wrong").mock(
        return_value=httpx.Response(
            200,
            headers={"Content-Type": "text/plain; charset=utf-8"},
            content=text.encode("cp1252"),
        )
    )
    response = http.get("https://public.example.org/wrong")
    assert response.text == text


@respx.mock
def test_an_undeclared_utf8_page_decodes_as_utf8() -> None:
    text = "naïve “quotes” — 東京"
    respx.get("https://public.example.org/none").mock(
        return_value=httpx.Response(200, content=f"<p>{text}</p>".encode())
    )
    response = http.get("https://public.example.org/none")
    assert response.encoding == "utf-8"
    assert text in response.text


def test_undecodable_bytes_become_replacement_characters_not_errors() -> None:
    response = http.Response(
        url="u",
        final_url="u",
        status=200,
        headers={},
        content=b"ok \xff\xfe\xfd",
        content_type="text/plain",
        encoding="utf-8",
        elapsed_ms=1,
        redirects=[],
        truncated=False,
    )
    assert response.text.startswith("ok ")
    assert "\ufffd" in response.text
