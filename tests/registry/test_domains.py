"""The domain registry: registrable domains, suffix rules, the shipped list, the in-memory
table and the `domains` command's CSV import / export."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
import requests
from django.core.management import CommandError, call_command
from django.db import transaction
from django.utils import timezone

from registry import hosts, weighing
from registry.domain_rows import (
    DomainCsvError,
    DomainError,
    default_domain_rows,
    normalize_domain_name,
    parse_domains_csv,
)
from registry.hosts import registrable_domain
from registry.models import Domain, Tier
from registry.weighing import is_denied, weigh_source
from tests.evidence.factories import use_config
from tests.factories import DomainFactory

# --- registrable domains (no database) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("https://www.bbc.co.uk/news", "bbc.co.uk"),
        ("http://News.BBC.co.uk:8080/path?q=1", "bbc.co.uk"),
        ("ec.europa.eu", "europa.eu"),
        ("www.cdc.gov.", "cdc.gov"),
        ("https://user:pw@a.b.example.com.au/x", "example.com.au"),
        ("https://93.184.216.34/page", "93.184.216.34"),
        ("https://[2606:2800:220:1::1]:443/", "2606:2800:220:1::1"),
        ("gov.uk", "gov.uk"),
        ("https://www.gov.uk/guidance/x", "gov.uk"),
        ("https://www.nhs.uk/conditions/", "nhs.uk"),
        ("https://assets.www.gov.uk/x", "gov.uk"),
        ("localhost", "localhost"),
        ("https://bücher.de/", "xn--bcher-kva.de"),
    ],
)
def test_registrable_domain_strips_subdomains_ports_and_case(given: str, expected: str) -> None:
    assert registrable_domain(given) == expected


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("https://gov.uk/government/budget", "https://www.gov.uk/guidance/budget"),
        ("https://www.nhs.uk/conditions/flu/", "https://nhs.uk/conditions/covid/"),
        ("https://www.cdc.gov/flu/", "https://stacks.cdc.gov/view/1"),
    ],
)
def test_two_host_names_of_one_site_are_one_publisher(one: str, other: str) -> None:
    """A site that is itself a public suffix (`gov.uk`) answers at `www.` too; its pages are
    one publisher's, so they must never count as two independent sources."""
    assert hosts.publisher_of(one) == hosts.publisher_of(other) is not None


def test_the_suffix_list_is_read_from_the_package_without_any_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the suffix list must not be fetched")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(requests.Session, "send", no_network)
    hosts._extractor.cache_clear()
    try:
        assert registrable_domain("https://www.parliament.gov.uk/x") == "parliament.gov.uk"
    finally:
        hosts._extractor.cache_clear()


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("Reuters.com", "reuters.com"),
        ("*.gov", ".gov"),
        (".GOV.UK", ".gov.uk"),
        ("europa.eu.", "europa.eu"),
        ("bücher.de", "xn--bcher-kva.de"),
    ],
)
def test_domain_names_are_stored_in_one_spelling(raw: str, stored: str) -> None:
    assert normalize_domain_name(raw) == stored


@pytest.mark.parametrize(
    "raw", ["", "   ", "https://reuters.com/", "reuters.com/world", "bad name.com", "-x-.com", "."]
)
def test_things_that_are_not_domain_names_are_refused(raw: str) -> None:
    with pytest.raises(DomainError):
        normalize_domain_name(raw)


# --- lookup -------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "tier", "matched"),
    [
        ("https://www.cdc.gov/flu", "official", ".gov"),
        ("https://www.nasa.gov/news", "official", ".gov"),
        ("https://www.army.mil/", "official", ".mil"),
        ("https://www.gov.uk/government/news", "official", ".gov.uk"),
        ("https://ec.europa.eu/commission/presscorner", "official", "europa.eu"),
        ("https://www.who.int/news", "official", "who.int"),
        ("https://www.reuters.com/world/", "wire", "reuters.com"),
        ("https://apnews.com/article/x", "wire", "apnews.com"),
        ("https://www.bbc.co.uk/news", "trade", "bbc.co.uk"),
        ("https://www.nature.com/articles/x", "trade", "nature.com"),
        ("https://x.com/someone/status/1", "social", "x.com"),
        ("https://t.me/channel/12", "social", "t.me"),
        ("https://old.reddit.com/r/news", "social", "reddit.com"),
        ("https://unknown-blog.example/post", "other", None),
    ],
)
def test_the_shipped_list_sorts_well_known_sources_into_tiers(
    url: str, tier: str, matched: str | None
) -> None:
    rule = weigh_source(url)

    assert (rule.tier, rule.matched, rule.denied) == (tier, matched, False)


@pytest.mark.django_db
def test_social_networks_count_for_nothing_by_default() -> None:
    assert weigh_source("https://www.facebook.com/page").weight == 0.0
    assert weigh_source("https://www.reuters.com/").weight == 0.8
    assert weigh_source("https://www.cdc.gov/").weight == 1.0


@pytest.mark.django_db
def test_the_shipped_list_has_a_note_on_every_row() -> None:
    rows = default_domain_rows()

    assert len(rows) > 80
    assert all(row.note for row in rows)
    assert Domain.objects.filter(name__in=[row.name for row in rows]).count() == len(rows)


@pytest.mark.django_db
def test_the_longest_matching_rule_wins() -> None:
    DomainFactory.create(name="data.example.gov", tier=Tier.OTHER, note="a data broker on .gov")

    assert weigh_source("https://www.data.example.gov/x").matched == "data.example.gov"
    assert weigh_source("https://www.data.example.gov/x").tier == "other"
    assert weigh_source("https://other.example.gov/x").tier == "official"


@pytest.mark.django_db
def test_a_rule_matches_whole_labels_only() -> None:
    DomainFactory.create(name="box.example", tier=Tier.WIRE)

    assert weigh_source("https://sandbox.example/").matched is None
    assert weigh_source("https://mail.box.example/").matched == "box.example"
    assert weigh_source("https://notgov.com/").tier == "other"


@pytest.mark.django_db
def test_a_suffix_rule_covers_hosts_under_it_and_the_suffix_itself() -> None:
    DomainFactory.create(name=".example.test", tier=Tier.TRADE)

    assert weigh_source("https://a.b.example.test/").matched == ".example.test"
    assert weigh_source("https://example.test/").matched == ".example.test"
    assert weigh_source("https://myexample.test/").matched is None


@pytest.mark.django_db
def test_the_weight_override_beats_the_tier_weight(settings: Any, tmp_path: Path) -> None:
    use_config(settings, tmp_path, "weights: {trade: 0.5, other: 0.3}\n")
    DomainFactory.create(name="journal.example", tier=Tier.TRADE, weight_override=0.9)
    DomainFactory.create(name="magazine.example", tier=Tier.TRADE)

    assert weigh_source("https://journal.example/").weight == 0.9
    assert weigh_source("https://magazine.example/").weight == 0.5
    assert weigh_source("https://nobody.example/").weight == 0.3


@pytest.mark.django_db
def test_denied_domains_and_their_subdomains_are_denied() -> None:
    DomainFactory.create(name="content-farm.example", denied=True, note="spam")

    assert is_denied("https://www.content-farm.example/a")
    assert is_denied("content-farm.example")
    assert not is_denied("https://farm.example/")


@pytest.mark.django_db
def test_an_ip_address_matches_only_a_rule_for_itself() -> None:
    DomainFactory.create(name="203.0.113.7", denied=True)

    assert is_denied("http://203.0.113.7/x")
    assert not is_denied("http://203.0.113.8/x")
    assert weigh_source("http://203.0.113.7/").registrable == "203.0.113.7"


# --- the in-memory table ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_change_saved_in_this_process_is_seen_at_once() -> None:
    domain = DomainFactory.create(name="news-site.example", tier=Tier.OTHER)
    assert weigh_source("https://news-site.example/").tier == "other"

    domain.tier = Tier.WIRE
    domain.save()
    assert weigh_source("https://news-site.example/").tier == "wire"

    domain.delete()
    assert weigh_source("https://news-site.example/").matched is None


@pytest.mark.django_db
def test_a_change_that_rolls_back_leaves_no_trace_in_the_cache() -> None:
    class Rollback(Exception):
        pass

    with pytest.raises(Rollback), transaction.atomic():
        DomainFactory.create(name="temporary.example", denied=True)
        assert is_denied("https://temporary.example/")
        raise Rollback

    assert not is_denied("https://temporary.example/")


@pytest.mark.django_db
def test_a_change_made_by_another_process_is_seen_after_the_recheck_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(weighing, "_clock", lambda: clock[0])
    monkeypatch.setattr(weighing, "_table", weighing._Table())
    # Written without signals, as if committed by another process before this one looked.
    Domain.objects.bulk_create([Domain(name="elsewhere.example", tier=Tier.OTHER)])
    assert weigh_source("https://elsewhere.example/").tier == "other"  # cached at t=1000

    # Another process saves the row: no signal reaches this one.
    Domain.objects.filter(name="elsewhere.example").update(
        tier=Tier.WIRE, updated_at=timezone.now()
    )
    clock[0] += 1
    assert weigh_source("https://elsewhere.example/").tier == "other"  # within the recheck interval
    clock[0] += weighing._RECHECK_SECONDS
    assert weigh_source("https://elsewhere.example/").tier == "wire"


# --- CSV ----------------------------------------------------------------------------------------


def test_a_csv_file_is_parsed_into_validated_rows() -> None:
    rows = parse_domains_csv(
        "name,tier,weight_override,denied,note\n"
        "# comment lines and blank lines are skipped\n"
        "\n"
        "Example.org,Wire,0.7,false,A wire\n"
        '*.gouv.example,official,,true,"Official, but denied"\n'
    )

    assert [(r.name, r.tier, r.weight_override, r.denied, r.note, r.line) for r in rows] == [
        ("example.org", "wire", 0.7, False, "A wire", 4),
        (".gouv.example", "official", None, True, "Official, but denied", 5),
    ]


def test_every_bad_csv_line_is_reported_with_its_line_number() -> None:
    with pytest.raises(DomainCsvError) as caught:
        parse_domains_csv(
            "name,tier,weight_override,denied,note\n"
            "good.example,trade,,false,fine\n"
            "bad name.example,trade,,false,space in name\n"
            "tier.example,tabloid,,false,unknown tier\n"
            "weight.example,trade,1.5,false,too heavy\n"
            "flag.example,trade,,perhaps,bad flag\n"
            "GOOD.example,wire,,false,duplicate\n"
            "extra.example,trade,,false,note,surplus\n"
        )

    lines = [(problem.line, problem.message) for problem in caught.value.problems]
    assert [line for line, _ in lines] == [3, 4, 5, 6, 7, 8]
    assert "tabloid" in lines[1][1]
    assert "between 0 and 1" in lines[2][1]
    assert "line 2" in lines[4][1]


def test_a_csv_file_without_the_expected_header_is_refused() -> None:
    with pytest.raises(DomainCsvError, match="line 1: the header must be"):
        parse_domains_csv("domain,kind\nreuters.com,wire\n")
    with pytest.raises(DomainCsvError, match="empty"):
        parse_domains_csv("")


# --- the command --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_export_then_import_round_trips_the_registry(tmp_path: Path) -> None:
    DomainFactory.create(
        name="weighted.example", tier=Tier.TRADE, weight_override=0.65, note="a, b"
    )
    DomainFactory.create(name=".denied.example", tier=Tier.OTHER, denied=True, note="spam")
    exported = tmp_path / "domains.csv"
    call_command("domains", "export", str(exported))
    before = exported.read_text(encoding="utf-8")
    assert before.startswith("name,tier,weight_override,denied,note\n")

    Domain.objects.all().delete()
    call_command("domains", "import", str(exported))
    again = tmp_path / "again.csv"
    call_command("domains", "export", str(again))

    assert again.read_text(encoding="utf-8") == before
    weighted = Domain.objects.get(name="weighted.example")
    assert (weighted.weight_override, weighted.note) == (0.65, "a, b")
    assert Domain.objects.get(name=".denied.example").denied


@pytest.mark.django_db
def test_import_updates_existing_domains_and_creates_new_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.csv"
    path.write_text(
        "name,tier,weight_override,denied,note\n"
        "reuters.com,wire,0.9,false,Reuters (trusted more)\n"
        "newcomer.example,trade,,false,new\n",
        encoding="utf-8",
    )

    call_command("domains", "import", str(path))

    assert "1 created, 1 updated" in capsys.readouterr().out
    assert Domain.objects.get(name="reuters.com").weight_override == 0.9
    assert weigh_source("https://www.reuters.com/").weight == 0.9
    assert Domain.objects.get(name="newcomer.example").tier == "trade"


@pytest.mark.django_db
def test_a_bad_csv_is_reported_by_line_and_nothing_is_half_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count = Domain.objects.count()
    path = tmp_path / "bad.csv"
    path.write_text(
        "name,tier,weight_override,denied,note\n"
        "first.example,trade,,false,valid\n"
        "reuters.com,social,,true,valid change\n"
        "second.example,nonsense,,false,bad tier\n",
        encoding="utf-8",
    )

    with pytest.raises(CommandError, match="1 bad line"):
        call_command("domains", "import", str(path))

    assert "line 4" in capsys.readouterr().err
    assert Domain.objects.count() == count
    assert not Domain.objects.filter(name="first.example").exists()
    assert Domain.objects.get(name="reuters.com").tier == "wire"


@pytest.mark.django_db
def test_a_dry_run_import_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.csv"
    path.write_text("name,tier\nnewcomer.example,trade\n", encoding="utf-8")

    call_command("domains", "import", str(path), "--dry-run")

    assert "would import: 1 created" in capsys.readouterr().out
    assert not Domain.objects.filter(name="newcomer.example").exists()


@pytest.mark.django_db
def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot read"):
        call_command("domains", "import", str(tmp_path / "nope.csv"))


@pytest.mark.django_db
def test_list_filters_by_tier_and_denied(capsys: pytest.CaptureFixture[str]) -> None:
    DomainFactory.create(name="spam.example", denied=True, note="link farm")

    call_command("domains", "list", "--tier", "wire")
    wires = capsys.readouterr().out
    call_command("domains", "list", "--denied")
    denied = capsys.readouterr().out

    assert "reuters.com" in wires and "bbc.co.uk" not in wires
    assert "spam.example" in denied and "DENIED" in denied and "reuters.com" not in denied
    assert denied.strip().endswith("1 domain(s)")


@pytest.mark.django_db
def test_check_shows_which_rule_covers_a_url(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("domains", "check", "https://www.nasa.gov/news")

    out = capsys.readouterr().out
    assert "registrable nasa.gov" in out and "rule .gov" in out and "tier official" in out


@pytest.mark.django_db
@pytest.mark.parametrize("note", ['=HYPERLINK("http://x.example")', "+1+1", "-2+3", "@SUM(A1)"])
def test_export_neutralizes_formula_notes_and_import_restores_them(
    tmp_path: Path, note: str
) -> None:
    DomainFactory.create(name="formula.example", tier=Tier.OTHER, note=note)
    exported = tmp_path / "domains.csv"
    call_command("domains", "export", str(exported))
    lines = exported.read_text(encoding="utf-8").splitlines()
    cell = next(line for line in lines if line.startswith("formula.example,")).split(",", 4)[4]
    assert cell.strip('"').startswith("'" + note[0])

    Domain.objects.all().delete()
    call_command("domains", "import", str(exported))
    assert Domain.objects.get(name="formula.example").note == note
