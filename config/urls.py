"""URL root: assembles the apps' pages and the JSON API."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from claimcheck import views
from config.api import api

handler500 = "claimcheck.views.server_error"

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path(
        "login/",
        views.LoginView.as_view(),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("", include("desk.urls")),
    path("", include("harvester.urls")),
    path("", include("registry.urls")),
]
