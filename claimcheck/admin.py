from django.contrib import admin

from claimcheck.models import ApiToken


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
