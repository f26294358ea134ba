from django.urls import path

from evidence.views import domains

urlpatterns = [
    path("domains/", domains.domain_list, name="domains"),
    path("domains/add/", domains.domain_add, name="domain_add"),
    path("domains/import/", domains.domain_import, name="domain_import"),
    path("domains/export.csv", domains.domain_export, name="domain_export"),
    path("domains/changes/", domains.domain_changes, name="domain_changes"),
    path("domains/<int:pk>/", domains.domain_row, name="domain_row"),
    path("domains/<int:pk>/edit/", domains.domain_edit, name="domain_edit"),
    path("domains/<int:pk>/remove/", domains.domain_remove, name="domain_remove"),
]
