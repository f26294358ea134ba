from django.urls import path

from evidence import views

urlpatterns = [
    path("domains/", views.domain_list, name="domains"),
    path("domains/add/", views.domain_add, name="domain_add"),
    path("domains/import/", views.domain_import, name="domain_import"),
    path("domains/export.csv", views.domain_export, name="domain_export"),
    path("domains/changes/", views.domain_changes, name="domain_changes"),
    path("domains/<int:pk>/", views.domain_row, name="domain_row"),
    path("domains/<int:pk>/edit/", views.domain_edit, name="domain_edit"),
    path("domains/<int:pk>/remove/", views.domain_remove, name="domain_remove"),
]
