from django.contrib import admin

from claims.models import Claim, PipelineEvent


class PipelineEventInline(admin.TabularInline):
    model = PipelineEvent
    extra = 0
    can_delete = False
    readonly_fields = ("sequence", "kind", "message", "payload", "created_at")


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "short_text",
        "status",
        "outcome",
        "overridden",
        "source_channel",
        "created_at",
    )
    list_filter = ("status", "outcome", "overridden")
    search_fields = ("text", "source_channel")
    readonly_fields = ("normalized_hash", "created_at", "updated_at", "started_at", "decided_at")
    raw_id_fields = ("created_by",)
    inlines = [PipelineEventInline]

    @admin.display(description="claim")
    def short_text(self, obj: Claim) -> str:
        return obj.text[:80]
