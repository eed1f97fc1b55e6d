from django.urls import path

from . import views

app_name = "tables"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/screen/", views.lobby_screen, name="lobby_screen"),
    path("tables/<slug:slug>/", views.table_detail, name="detail"),
    path("tables/<slug:slug>/odds/", views.table_odds, name="odds"),
]
