from django.contrib import admin

from registry.models import Domain


@admin.register(Domain)
class DomainAdmin(admin.ModelAdmin):
    list_display = ("name", "tier", "weight_override", "denied", "note", "updated_at")
    list_filter = ("tier", "denied")
    search_fields = ("name", "note")
    list_editable = ("tier", "weight_override", "denied")
