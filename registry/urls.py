from django.urls import path

from registry.views import aliases, domains

urlpatterns = [
    path("domains/", domains.domain_list, name="domains"),
    path("domains/add/", domains.domain_add, name="domain_add"),
    path("domains/import/", domains.domain_import, name="domain_import"),
    path("domains/export.csv", domains.domain_export, name="domain_export"),
    path("domains/changes/", domains.domain_changes, name="domain_changes"),
    path("domains/<int:pk>/", domains.domain_row, name="domain_row"),
    path("domains/<int:pk>/edit/", domains.domain_edit, name="domain_edit"),
    path("domains/<int:pk>/remove/", domains.domain_remove, name="domain_remove"),
    path("domains/aliases/", aliases.alias_list, name="aliases"),
    path("domains/aliases/add/", aliases.alias_add, name="alias_add"),
    path("domains/aliases/import/", aliases.alias_import, name="alias_import"),
    path("domains/aliases/export.csv", aliases.alias_export, name="alias_export"),
    path("domains/aliases/<int:pk>/", aliases.alias_row, name="alias_row"),
    path("domains/aliases/<int:pk>/edit/", aliases.alias_edit, name="alias_edit"),
    path("domains/aliases/<int:pk>/remove/", aliases.alias_remove, name="alias_remove"),
]
