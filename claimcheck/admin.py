from django.contrib import admin

from claimcheck.models import ApiToken, Claim, PipelineEvent


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


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are listed and revoked here; they are created with `manage.py apitoken create`,
    which shows the raw value once."""

    list_display = ("prefix", "name", "user", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "prefix", "user__username")
    readonly_fields = ("user", "name", "prefix", "digest", "created_at", "last_used_at")
    actions = ["revoke"]

    def has_add_permission(self, request: object) -> bool:
        return False

    @admin.action(description="Revoke selected tokens")
    def revoke(self, request: object, queryset: object) -> None:
        from django.utils import timezone

        queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())  # type: ignore[attr-defined]
