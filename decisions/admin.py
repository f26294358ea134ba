from django.contrib import admin

from decisions.models import Override, Verdict


class OverrideInline(admin.TabularInline):
    model = Override
    extra = 0
    can_delete = False
    readonly_fields = ("editor", "from_outcome", "to_outcome", "reason", "at")

    def has_add_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(Verdict)
class VerdictAdmin(admin.ModelAdmin):
    list_display = ("claim", "outcome", "reason", "support_total", "refute_total", "decided_at")
    list_filter = ("outcome", "reason")
    raw_id_fields = ("claim",)
    inlines = [OverrideInline]


@admin.register(Override)
class OverrideAdmin(admin.ModelAdmin):
    """The override history is an audit trail: readable here, never edited."""

    list_display = ("verdict", "editor", "from_outcome", "to_outcome", "at")
    readonly_fields = ("verdict", "editor", "from_outcome", "to_outcome", "reason", "at")

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
