from django.urls import path

from .consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<slug:slug>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
