from django.urls import path

from . import views

app_name = "tables"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/<slug:slug>/", views.table_detail, name="detail"),
]
