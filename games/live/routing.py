from django.urls import path

from games.live.consumers import MatchConsumer, UserConsumer

websocket_urlpatterns = [
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
]
