from django.urls import path

from games import play_views, record_views, rules_pages, social_views, status, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("new/", views.new_match, name="new"),
    path("history/", views.history, name="history"),
    path("status/", status.status_page, name="status"),
    path("rules/<slug:game>/", rules_pages.rules, name="rules"),
    path("invite/<name:token>/", views.invite, name="invite"),
    path("m/<id:match_id>/", views.match_page, name="match"),
    path("m/<id:match_id>/act/", views.act, name="act"),
    path("m/<id:match_id>/join/", views.join, name="join"),
    path("m/<id:match_id>/resign/", views.resign, name="resign"),
    path("m/<id:match_id>/abort/", views.abort, name="abort"),
    path("m/<id:match_id>/claim/", views.claim_win, name="claim"),
    path("m/<id:match_id>/reclaim/", views.reclaim_seat, name="reclaim"),
    path("m/<id:match_id>/rematch/", views.rematch, name="rematch"),
    path("m/<id:match_id>/chat/", views.chat, name="chat"),
    path("m/<id:match_id>/replay/", views.replay_page, name="replay"),
    path("m/<id:match_id>/replay/<int:step>/", views.replay_page, name="replay-step"),
    path("m/<id:match_id>/export.<str:fmt>", record_views.export_match, name="export"),
    path("history/export.zip", record_views.export_all, name="export-all"),
    # The address the navigation linked to before there was a page of every game's board (of the two
    # patterns of one name, reverse() gives the later).
    path("leaderboard/", record_views.leaderboards, name="leaderboards"),
    path("leaderboards/", record_views.leaderboards, name="leaderboards"),
    path("leaderboard/<slug:game>/", record_views.leaderboard, name="leaderboard"),
    path("api/history/", record_views.api_history, name="api-history"),
    path("api/users/<name:username>/", record_views.api_profile, name="api-profile"),
    path("api/leaderboard/<slug:game>/", record_views.api_leaderboard, name="api-leaderboard"),
    path("inbox/", social_views.inbox, name="inbox"),
    path("lobby/challenge/", social_views.open_challenge, name="open-challenge"),
    path("m/<id:match_id>/challenge/", social_views.challenge_to_match, name="challenge"),
    path("m/<id:match_id>/challenge/accept/", social_views.accept, name="challenge-accept"),
    path("m/<id:match_id>/challenge/decline/", social_views.decline, name="challenge-decline"),
    path("challenge/<name:username>/", social_views.challenge_player, name="challenge-player"),
    path("play/", play_views.play, name="play"),
    path("play/seeks/", play_views.play_seeks, name="play-seeks"),
    path("play/<id:seek_id>/cancel/", play_views.cancel_seek, name="cancel-seek"),
    path("people/", play_views.people_page, name="people"),
    path("people/<name:username>/follow/", play_views.follow, name="follow"),
    path("people/<name:username>/unfollow/", play_views.unfollow, name="unfollow"),
    path("people/<name:username>/block/", play_views.block, name="block"),
    path("people/<name:username>/unblock/", play_views.unblock, name="unblock"),
    path("people/<name:username>/challenge/", play_views.challenge, name="people-challenge"),
    path("api/matches/<id:match_id>/", views.api_match, name="api-match"),
    path("api/matches/<id:match_id>/act/", views.api_act, name="api-act"),
]
