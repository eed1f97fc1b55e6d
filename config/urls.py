from django.contrib import admin
from django.urls import include, path

from tables.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("", include("tables.urls")),
]
