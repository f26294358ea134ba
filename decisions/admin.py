from typing import Any

from django.contrib import admin, messages

from decisions.errors import ClaimError
from decisions.models import OutcomeModelVersion, Override, Verdict
from decisions.services import outcome_model_accept, outcome_model_restore


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


@admin.register(OutcomeModelVersion)
class OutcomeModelVersionAdmin(admin.ModelAdmin):
    """Refits of the outcome model on the editors' reviews: accept a candidate to put it in
    force, or restore the model accepted before the one in force (or the shipped one)."""

    list_display = ("id", "created_at", "status", "prior", "accepted_by", "accepted_at")
    list_filter = ("status",)
    readonly_fields = (
        "created_at",
        "status",
        "model",
        "report",
        "prior",
        "accepted_by",
        "accepted_at",
    )
    actions = ("accept", "restore_previous")

    def has_add_permission(self, request: object) -> bool:
        return False

    @admin.action(description="Accept the selected candidate: put it in force")
    def accept(self, request: Any, queryset: Any) -> None:
        if queryset.count() != 1:
            self.message_user(request, "Select one candidate to accept.", level=messages.ERROR)
            return
        try:
            version = outcome_model_accept(version_id=queryset.get().pk, admin=request.user)
        except ClaimError as exc:
            self.message_user(request, exc.message, level=messages.ERROR)
            return
        self.message_user(request, f"Outcome model {version.pk} is in force.")

    @admin.action(description="Restore the model accepted before the one in force")
    def restore_previous(self, request: Any, queryset: Any) -> None:
        try:
            previous = outcome_model_restore(admin=request.user)
        except ClaimError as exc:
            self.message_user(request, exc.message, level=messages.ERROR)
            return
        self.message_user(
            request,
            "The shipped outcome model is in force again."
            if previous is None
            else f"Outcome model {previous.pk} is in force again.",
        )
