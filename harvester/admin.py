from django.contrib import admin

from harvester.models import ProcessedResult, Query, RawResult, SearchRun


@admin.register(Query)
class QueryAdmin(admin.ModelAdmin):
    list_display = ("original_query", "rewritten_template", "rewriter", "created_at")
    search_fields = ("original_query",)


class ProcessedInline(admin.TabularInline):
    model = ProcessedResult
    extra = 0
    can_delete = False
    readonly_fields = ("url", "providers", "confidence", "best_rank", "title", "published")
    fields = readonly_fields


@admin.register(SearchRun)
class SearchRunAdmin(admin.ModelAdmin):
    list_display = ("id", "query", "status", "latency_ms", "run_timestamp", "claim")
    list_filter = ("status",)
    search_fields = ("query",)
    raw_id_fields = ("claim", "created_by")
    inlines = [ProcessedInline]


@admin.register(RawResult)
class RawResultAdmin(admin.ModelAdmin):
    list_display = ("run", "provider", "rank", "url")
    list_filter = ("provider",)
    raw_id_fields = ("run",)
