"""factory-boy factories, one per model."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from claimcheck.models import ApiToken
from claims.models import Claim, ClaimStatus, EventKind, Outcome, PipelineEvent
from decisions.models import Override, Verdict, VerdictReason
from evidence.models import (
    ContentDepth,
    Evidence,
    FactCheckCache,
    FactCheckMatch,
    Method,
    Page,
    Stance,
)
from harvester.models import ProcessedResult, Query, RawResult, SearchRun
from registry.models import Domain, Tier


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", "pass-word-123")

    @factory.post_generation
    def groups(self, create: bool, extracted: list[str] | None, **kwargs: object) -> None:
        if create and extracted:
            from django.contrib.auth.models import Group

            # get_or_create: transactional tests flush the groups the migration made.
            self.groups.add(*(Group.objects.get_or_create(name=name)[0] for name in extracted))
        if create:
            self.save()  # type: ignore[attr-defined]


class ApiTokenFactory(factory.django.DjangoModelFactory[ApiToken]):
    class Meta:
        model = ApiToken

    user = factory.SubFactory(UserFactory)
    name = "test"
    prefix = factory.Sequence(lambda n: f"cc_t{n:06d}")
    digest = factory.Sequence(lambda n: hashlib.sha256(f"token-{n}".encode()).hexdigest())


class ClaimFactory(factory.django.DjangoModelFactory[Claim]):
    class Meta:
        model = Claim

    text = factory.Sequence(lambda n: f"The agency approved measure number {n} in March 2024")
    status = ClaimStatus.QUEUED


class DecidedClaimFactory(ClaimFactory):
    status = ClaimStatus.DECIDED
    outcome = Outcome.TRUE
    decided_at = factory.LazyFunction(timezone.now)


class PipelineEventFactory(factory.django.DjangoModelFactory[PipelineEvent]):
    class Meta:
        model = PipelineEvent

    claim = factory.SubFactory(ClaimFactory)
    sequence = factory.Sequence(lambda n: n + 1)
    kind = EventKind.QUERY
    message = "query composed"


class QueryFactory(factory.django.DjangoModelFactory[Query]):
    class Meta:
        model = Query

    original_query = factory.Sequence(lambda n: f"query number {n}")
    rewritten_template = factory.LazyAttribute(lambda q: q.original_query)
    rewriter = "deterministic"


class SearchRunFactory(factory.django.DjangoModelFactory[SearchRun]):
    class Meta:
        model = SearchRun

    query = factory.Sequence(lambda n: f"search {n}")
    rewritten_template = factory.LazyAttribute(lambda r: r.query)
    providers_used = factory.LazyFunction(lambda: ["local"])


class RawResultFactory(factory.django.DjangoModelFactory[RawResult]):
    class Meta:
        model = RawResult

    run = factory.SubFactory(SearchRunFactory)
    provider = "local"
    url = factory.Sequence(lambda n: f"https://news.example/story-{n}")
    title = "A story"
    rank = factory.Sequence(lambda n: n + 1)


class ProcessedResultFactory(factory.django.DjangoModelFactory[ProcessedResult]):
    class Meta:
        model = ProcessedResult

    run = factory.SubFactory(SearchRunFactory)
    url = factory.Sequence(lambda n: f"https://news.example/story-{n}")
    providers = factory.LazyFunction(lambda: ["local"])
    confidence = 1
    dedupe_hash = factory.LazyAttribute(lambda r: hashlib.sha1(r.url.encode()).hexdigest())  # noqa: S324
    best_rank = 1


class DomainFactory(factory.django.DjangoModelFactory[Domain]):
    class Meta:
        model = Domain
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"site{n}.example")
    tier = Tier.OTHER


class PageFactory(factory.django.DjangoModelFactory[Page]):
    class Meta:
        model = Page

    url = factory.Sequence(lambda n: f"https://agency.example/news/{n}")
    domain = "agency.example"
    http_status = 200
    title = "Agency approves measure"
    content_type = "text/html"
    text = "The agency approved the measure on 1 March 2024."
    scraped_chars = factory.LazyAttribute(lambda p: len(p.text))
    fetcher = "http"


class EvidenceFactory(factory.django.DjangoModelFactory[Evidence]):
    class Meta:
        model = Evidence

    claim = factory.SubFactory(ClaimFactory)
    page = factory.SubFactory(PageFactory)
    url = factory.LazyAttribute(lambda e: e.page.url if e.page else "https://x.example/")
    domain = factory.LazyAttribute(lambda e: e.page.domain if e.page else "x.example")
    tier = Tier.OFFICIAL
    weight = 1.0
    event_at = factory.LazyFunction(lambda: timezone.now() - timedelta(days=3))
    source_quote = "The agency approved the measure on 1 March 2024."
    stance = Stance.SUPPORT
    stance_score = 0.8
    method = Method.STRUCTURED
    content_depth = ContentDepth.FULL
    in_window = True


class FactCheckMatchFactory(factory.django.DjangoModelFactory[FactCheckMatch]):
    class Meta:
        model = FactCheckMatch

    claim = factory.SubFactory(ClaimFactory)
    publisher = "Fact Desk"
    publisher_site = "factdesk.example"
    rating = "False"
    url = factory.Sequence(lambda n: f"https://factdesk.example/check/{n}")


class FactCheckCacheFactory(factory.django.DjangoModelFactory[FactCheckCache]):
    class Meta:
        model = FactCheckCache

    normalized_hash = factory.Sequence(lambda n: hashlib.sha256(str(n).encode()).hexdigest())


class VerdictFactory(factory.django.DjangoModelFactory[Verdict]):
    class Meta:
        model = Verdict

    claim = factory.SubFactory(DecidedClaimFactory)
    outcome = Outcome.TRUE
    reason = VerdictReason.SUFFICIENT
    proof_markdown = "Two official sources confirm it."
    support_total = 1.8


class OverrideFactory(factory.django.DjangoModelFactory[Override]):
    class Meta:
        model = Override

    verdict = factory.SubFactory(VerdictFactory)
    editor = factory.SubFactory(UserFactory, groups=["editors"])
    from_outcome = Outcome.TRUE
    to_outcome = Outcome.FALSE
    reason = "The second source retracted its report."
