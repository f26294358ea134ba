from django.urls import path

from harvester import views

urlpatterns = [
    path("search-runs/", views.search_run_list, name="search_runs"),
    path("search-runs/<int:pk>/", views.search_run_detail, name="search_run_detail"),
]
