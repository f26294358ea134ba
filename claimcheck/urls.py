"""URL root: assembles the apps' pages and the JSON API."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path

from claimcheck import views
from claimcheck.api import api
from decisions import views as decision_views
from evidence import views as evidence_views
from harvester import views as harvester_views

urlpatterns = [
    path("", decision_views.claim_list, name="home"),
    path("dashboard/", decision_views.dashboard, name="dashboard"),
    path("search-runs/", harvester_views.search_run_list, name="search_runs"),
    path("domains/", evidence_views.domain_list, name="domains"),
    path("healthz", views.healthz, name="healthz"),
    path(
        "login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
]
