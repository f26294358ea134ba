"""manage.py harvest "query": the merged list, with providers and confidence."""

from __future__ import annotations

import io

import pytest
import respx
from django.core.management import CommandError, call_command

from harvester.local_index import index_document
from tests.harvester import samples
from tests.harvester.conftest import UseConfig, providers_config

pytestmark = pytest.mark.django_db


def test_it_prints_the_merged_list_with_providers_and_confidence(
    use_config: UseConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_SERPER_KEY", "k")
    use_config(providers_config({"serper": {"api_key_env": "TEST_SERPER_KEY"}, "local": {}}))
    index_document(
        url="https://commission.europa.eu/news/ai-act-enters-force-2024-08-01_en",
        title="AI Act enters into force",
        text="The AI Act entered into force.",
    )
    out = io.StringIO()
    with respx.mock() as mock:
        mock.post("https://google.serper.dev/search").respond(200, json=samples.SERPER)
        call_command("harvest", "AI Act", stdout=out)
    text = out.getvalue()
    assert "2 unique urls:" in text
    assert (
        "[2] https://commission.europa.eu/news/ai-act-enters-force-2024-08-01_en  (serper,local)"
        in text
    )
    assert "[1] https://europarl.europa.eu/topics/en/article/20230601STO93804  (serper)" in text
    assert "serper   ok" in text


def test_it_fails_with_each_providers_reason_when_none_answers(
    use_config: UseConfig,
) -> None:
    use_config(providers_config({"serper": {"api_key_env": "ABSENT_KEY"}}))
    with pytest.raises(CommandError, match="serper: no API key"):
        call_command("harvest", "AI Act", stdout=io.StringIO())
