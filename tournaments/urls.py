from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.new_tournament, name="new"),
    path("<id:tournament_id>/", views.detail, name="detail"),
    path("<id:tournament_id>/register/", views.register, name="register"),
    path("<id:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<id:tournament_id>/start/", views.start, name="start"),
]
