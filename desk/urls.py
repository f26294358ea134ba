from django.urls import path

from desk import views

urlpatterns = [
    path("", views.claim_list, name="home"),
    path("claims/live/", views.claim_queue_live, name="claim_queue_live"),
    path("claims/bulk/", views.claims_bulk, name="claims_bulk"),
    path("claims/mine/", views.my_queue, name="my_queue"),
    path("claims/review/next/", views.claim_review_next, name="claim_review_next"),
    path("claims/new/", views.claim_new, name="claim_new"),
    path("claims/new/batch/", views.claim_new_batch, name="claim_new_batch"),
    path("claims/<int:pk>/", views.claim_detail, name="claim_detail"),
    path("claims/<int:pk>/live/", views.claim_live, name="claim_live"),
    path(
        "claims/<int:pk>/evidence/<int:evidence_id>/",
        views.evidence_context,
        name="evidence_context",
    ),
    path("claims/<int:pk>/override/", views.claim_override, name="claim_override"),
    path("claims/<int:pk>/review/", views.claim_review, name="claim_review"),
    path("claims/<int:pk>/take/", views.claim_take_view, name="claim_take"),
    path("claims/<int:pk>/release/", views.claim_release_view, name="claim_release"),
    path("claims/<int:pk>/comments/", views.claim_comment, name="claim_comment"),
    path("claims/<int:pk>/rerun/", views.claim_rerun_view, name="claim_rerun"),
    path("claims/<int:pk>/same/<int:other>/", views.claim_mark_same_view, name="claim_mark_same"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("people/", views.people_list, name="people"),
    path("people/<int:pk>/role/", views.person_role, name="person_role"),
    path("people/<int:pk>/active/", views.person_active, name="person_active"),
    path("people/<int:pk>/password/", views.person_password, name="person_password"),
    path("people/<int:pk>/tokens/", views.person_token, name="person_token"),
    path(
        "people/<int:pk>/tokens/<int:token_id>/revoke/",
        views.person_token_revoke,
        name="person_token_revoke",
    ),
]
