"""Response bodies in the shape each provider really answers with (trimmed)."""

from __future__ import annotations

from typing import Any

SERPER: dict[str, Any] = {
    "searchParameters": {"q": "eu ai act", "type": "search", "engine": "google"},
    "organic": [
        {
            "title": "AI Act enters into force",
            "link": "https://commission.europa.eu/news/ai-act-enters-force-2024-08-01_en",
            "snippet": "The AI Act entered into force on 1 August 2024.",
            "date": "Aug 1, 2024",
            "position": 1,
        },
        {
            "title": "EU AI Act: first regulation on artificial intelligence",
            "link": "https://www.europarl.europa.eu/topics/en/article/20230601STO93804/?utm_source=x",
            "snippet": "The use of artificial intelligence in the EU will be regulated.",
            "position": 2,
        },
    ],
}
SERPER_EMPTY: dict[str, Any] = {"searchParameters": {"q": "zzz"}, "organic": []}

BRAVE: dict[str, Any] = {
    "type": "search",
    "query": {"original": "eu ai act"},
    "web": {
        "type": "search",
        "results": [
            {
                "title": "EU AI Act: first regulation on artificial intelligence | Topics",
                "url": "https://europarl.europa.eu/topics/en/article/20230601STO93804",
                "description": "The use of <strong>artificial intelligence</strong> in the EU.",
                "page_age": "2023-06-08T10:00:00",
                "age": "June 8, 2023",
            },
            {
                "title": "The AI Act Explorer",
                "url": "https://artificialintelligenceact.eu/ai-act-explorer/",
                "description": "Explore the full text of the AI Act.",
            },
        ],
    },
}
BRAVE_EMPTY: dict[str, Any] = {"type": "search", "query": {"original": "zzz"}}

SEARXNG: dict[str, Any] = {
    "query": "eu ai act",
    "number_of_results": 0,
    "results": [
        {
            "url": "https://artificialintelligenceact.eu/ai-act-explorer",
            "title": "AI Act Explorer",
            "content": "Explore the AI Act text, article by article.",
            "engine": "duckduckgo",
            "publishedDate": "2024-07-12T00:00:00",
            "score": 2.0,
        },
        {
            "url": "https://www.reuters.com/technology/eu-ai-act-2024-08-01/#comments",
            "title": "EU AI Act takes effect",
            "content": "Europe's landmark rules on artificial intelligence enter into force.",
            "engine": "bing",
            "publishedDate": None,
            "score": 1.0,
        },
    ],
    "answers": [],
    "unresponsive_engines": [],
}
SEARXNG_EMPTY: dict[str, Any] = {"query": "zzz", "results": [], "unresponsive_engines": []}

YACY: dict[str, Any] = {
    "channels": [
        {
            "title": "YaCy P2P-Search for eu ai act",
            "totalResults": "2",
            "items": [
                {
                    "title": "AI Act | Shaping Europe's digital future",
                    "link": "https://digital-strategy.ec.europa.eu/en/policies/regulatory-framework-ai",
                    "description": "The AI Act is the first-ever legal framework on AI.",
                    "pubDate": "Thu, 01 Aug 2024 09:00:00 +0000",
                    "host": "digital-strategy.ec.europa.eu",
                },
                {
                    "title": "AI Act Explorer",
                    "link": "http://artificialintelligenceact.eu/ai-act-explorer/",
                    "description": "",
                    "pubDate": "",
                },
            ],
        }
    ]
}
YACY_EMPTY: dict[str, Any] = {"channels": [{"title": "YaCy", "totalResults": "0", "items": []}]}

GDELT: dict[str, Any] = {
    "articles": [
        {
            "url": "https://www.politico.eu/article/eu-ai-act-enters-into-force/",
            "url_mobile": "",
            "title": "EU AI Act enters into force",
            "seendate": "20240801T103000Z",
            "socialimage": "",
            "domain": "politico.eu",
            "language": "English",
            "sourcecountry": "Belgium",
        }
    ]
}
GDELT_EMPTY: dict[str, Any] = {}
GDELT_ERROR_TEXT = "Your search contained a keyword that was too short or too common."

GOOGLE: dict[str, Any] = {
    "kind": "customsearch#search",
    "items": [
        {
            "kind": "customsearch#result",
            "title": "AI Act enters into force - European Commission",
            "link": "https://commission.europa.eu/news/ai-act-enters-force-2024-08-01_en",
            "snippet": "On 1 August 2024, the AI Act entered into force.",
            "pagemap": {"metatags": [{"article:published_time": "2024-08-01T08:00:00+00:00"}]},
        }
    ],
}
GOOGLE_EMPTY: dict[str, Any] = {"kind": "customsearch#search", "searchInformation": {}}

EVENTREGISTRY: dict[str, Any] = {
    "articles": {
        "results": [
            {
                "uri": "8210012345",
                "lang": "eng",
                "isDuplicate": False,
                "date": "2024-08-01",
                "time": "09:30:00",
                "dateTime": "2024-08-01T09:30:00Z",
                "dataType": "news",
                "url": "https://www.reuters.com/technology/eu-ai-act-enters-into-force-2024-08-01/",
                "title": "EU AI Act enters into force",
                "body": "The European Union's Artificial Intelligence Act entered into force on"
                " Thursday, starting the clock on obligations for providers. " * 8,
                "source": {"uri": "reuters.com", "dataType": "news", "title": "Reuters"},
            },
            {
                "uri": "8210012399",
                "lang": "eng",
                "date": "2024-08-02",
                "dateTime": "2024-08-02T14:00:00Z",
                "url": "https://www.euractiv.com/section/tech/news/ai-act-in-force/",
                "title": "AI Act now in force: what changes",
                "body": "Companies have until 2026 to comply with most of the rules.",
                "source": {"uri": "euractiv.com", "title": "Euractiv"},
            },
        ],
        "totalResults": 2,
        "page": 1,
        "count": 100,
        "pages": 1,
    }
}
EVENTREGISTRY_EMPTY: dict[str, Any] = {
    "articles": {"results": [], "totalResults": 0, "page": 1, "count": 100, "pages": 0}
}
EVENTREGISTRY_ERROR: dict[str, Any] = {"error": "Invalid API key."}

NEWSAPI: dict[str, Any] = {
    "status": "ok",
    "totalResults": 3,
    "articles": [
        {
            "source": {"id": "reuters", "name": "Reuters"},
            "author": "Foo Yun Chee",
            "title": "EU AI Act enters into force",
            "description": "The EU's landmark AI rules entered into force on Thursday.",
            "url": "https://www.reuters.com/technology/eu-ai-act-enters-into-force-2024-08-01/",
            "urlToImage": None,
            "publishedAt": "2024-08-01T09:30:00Z",
            "content": "BRUSSELS, Aug 1 (Reuters) - The European Union's AI Act... [+2310 chars]",
        },
        {
            "source": {"id": None, "name": "[Removed]"},
            "author": None,
            "title": "[Removed]",
            "description": "[Removed]",
            "url": "https://removed.com",
            "urlToImage": None,
            "publishedAt": "1970-01-01T00:00:00Z",
            "content": "[Removed]",
        },
        {
            "source": {"id": None, "name": "Euractiv"},
            "author": None,
            "title": "AI Act now in force: what changes",
            "description": "Companies have until 2026 to comply with most of the rules.",
            "url": "https://www.euractiv.com/section/tech/news/ai-act-in-force/",
            "urlToImage": None,
            "publishedAt": "2024-08-02T14:00:00Z",
            "content": "",
        },
    ],
}
NEWSAPI_EMPTY: dict[str, Any] = {"status": "ok", "totalResults": 0, "articles": []}
NEWSAPI_ERROR: dict[str, Any] = {
    "status": "error",
    "code": "parameterInvalid",
    "message": "You are trying to request results too far in the past.",
}
