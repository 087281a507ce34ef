from django.urls import path

from games.reversi import practice

app_name = "reversi-practice"

urlpatterns = [
    path("", practice.practice, name="practice"),
    path("answer/", practice.answer, name="answer"),
]
