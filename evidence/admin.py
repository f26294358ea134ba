from django.contrib import admin

from evidence.models import Evidence, FactCheckCache, FactCheckMatch, Page


@admin.register(Page)
class PageAdmin(admin.ModelAdmin):
    list_display = ("url", "http_status", "content_depth", "verification_status", "fetched_at")
    list_filter = ("content_depth", "verification_status", "fetcher")
    search_fields = ("url", "title")
    exclude = ("html",)


@admin.register(Evidence)
class EvidenceAdmin(admin.ModelAdmin):
    list_display = ("claim", "domain", "tier", "weight", "stance", "event_at", "method")
    list_filter = ("stance", "tier", "method")
    raw_id_fields = ("claim", "page")


@admin.register(FactCheckMatch)
class FactCheckMatchAdmin(admin.ModelAdmin):
    list_display = ("claim", "publisher", "rating", "url", "review_date")
    raw_id_fields = ("claim",)


admin.site.register(FactCheckCache)
