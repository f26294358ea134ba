"""Helpers for the evidence tests: fake DNS, a pipeline config written for one test, pages and
a small PDF built in code (so no binary fixture has to be kept in the repository)."""

from __future__ import annotations

import ipaddress
import socket
import zlib
from datetime import timedelta
from pathlib import Path
from typing import Any

import factory
import pytest
from django.utils import timezone

from claimcheck.config import PipelineConfig, reload_config
from evidence.models import ContentDepth, Page, VerificationStatus
from integrations import http
from registry.models import Domain, Tier
from tests.factories import PageFactory

# Every host the tests pretend exists, with the addresses it "resolves" to.
FAKE_DNS: dict[str, list[str]] = {
    "news.example.org": ["93.184.216.34"],
    "www.news.example.org": ["93.184.216.34"],
    "agency.example.gov": ["93.184.216.35"],
    "mirror.example.net": ["151.101.1.69"],
    "blocked.example.com": ["93.184.216.36"],
    "internal.example.org": ["10.1.2.3"],
    "factchecktools.googleapis.com": ["142.250.74.10"],
    "herald.example": ["93.184.216.40"],
    "courier.example": ["93.184.216.41"],
}


def fake_resolve(host: str, port: int) -> list[http.IPAddress]:
    try:
        return [ipaddress.ip_address(address) for address in FAKE_DNS[host]]
    except KeyError:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None


def install_fake_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http.addresses, "resolve", fake_resolve)


def use_config(settings: Any, tmp_path: Path, yaml_text: str) -> PipelineConfig:
    """Point the pipeline at a config file holding `yaml_text` (the autouse fixture in
    tests/conftest.py restores the shipped one afterwards)."""
    path = tmp_path / "pipeline.yaml"
    path.write_text(yaml_text, encoding="utf-8")
    settings.CLAIMCHECK_CONFIG = str(path)
    return reload_config()


ARTICLE_TEXT = (
    "The Ministry of Transport announced on 4 March 2024 that the new rail line between the "
    "two cities will open to passengers in the autumn. Officials said the line had passed its "
    "final safety inspection and that ticket sales would begin in the summer. The project, "
    "first proposed more than a decade ago, cost considerably more than planned, and its "
    "opening was delayed twice by disputes over land purchases along the route. Regional "
    "leaders welcomed the announcement and said the line would cut journey times by half. "
    "Critics pointed to the rising cost of the project and asked for an independent audit "
    "of the contracts awarded during construction."
)


def article_html(
    *, title: str = "Rail line to open in autumn", text: str = ARTICLE_TEXT, head: str = ""
) -> str:
    paragraphs = "".join(f"<p>{sentence}.</p>" for sentence in text.split(". ") if sentence)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{title}</title>{head}</head><body><nav>Home | World | Business</nav>"
        f"<article><h1>{title}</h1>{paragraphs}</article>"
        "<footer>Copyright News Example</footer></body></html>"
    )


def _pdf_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def minimal_pdf(*, lines: list[str], title: str = "") -> bytes:
    """A small valid PDF: one page showing `lines` in Helvetica, with a compressed content
    stream and an optional document title, its cross-reference table computed here."""
    ops = ["BT", "/F1 11 Tf", "14 TL", "50 780 Td"]
    for line in lines:
        ops.append(f"({_pdf_string(line)}) Tj T*")
    ops.append("ET")
    stream = zlib.compress("\n".join(ops).encode("latin-1"))
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Title ({_pdf_string(title)}) /CreationDate (D:20240304120000Z) >>".encode("latin-1"),
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


class DeniedDomainFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Domain
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"denied{n}.example")
    tier = Tier.OTHER
    denied = True
    note = "spam network"


class StalePageFactory(PageFactory):
    """A page fetched long before any cache TTL."""

    fetched_at = factory.LazyFunction(lambda: timezone.now() - timedelta(days=365))


class FailedPageFactory(PageFactory):
    http_status = 404
    text = ""
    title = ""
    scraped_chars = factory.LazyAttribute(lambda page: 0)
    content_depth = ContentDepth.SNIPPET
    verification_status = VerificationStatus.FAILED
    error = "http 404"


__all__ = [
    "DeniedDomainFactory",
    "FailedPageFactory",
    "Page",
    "StalePageFactory",
    "article_html",
    "install_fake_dns",
    "minimal_pdf",
    "use_config",
]
