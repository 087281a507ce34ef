from django.urls import path

from games import rules_pages, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("new/", views.new_match, name="new"),
    path("history/", views.history, name="history"),
    path("rules/<slug:game>/", rules_pages.rules, name="rules"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("m/<int:match_id>/", views.match_page, name="match"),
    path("m/<int:match_id>/act/", views.act, name="act"),
    path("m/<int:match_id>/join/", views.join, name="join"),
    path("m/<int:match_id>/resign/", views.resign, name="resign"),
    path("m/<int:match_id>/abort/", views.abort, name="abort"),
    path("m/<int:match_id>/claim/", views.claim_win, name="claim"),
    path("m/<int:match_id>/reclaim/", views.reclaim_seat, name="reclaim"),
    path("m/<int:match_id>/rematch/", views.rematch, name="rematch"),
    path("m/<int:match_id>/chat/", views.chat, name="chat"),
    path("m/<int:match_id>/replay/", views.replay_page, name="replay"),
    path("m/<int:match_id>/replay/<int:step>/", views.replay_page, name="replay-step"),
    path("api/matches/<int:match_id>/", views.api_match, name="api-match"),
    path("api/matches/<int:match_id>/act/", views.api_act, name="api-act"),
]
