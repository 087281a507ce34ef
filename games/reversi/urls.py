from django.urls import path

from games.reversi import views

app_name = "reversi-practice"

urlpatterns = [
    path("", views.practice, name="practice"),
    path("answer/", views.answer, name="answer"),
]
