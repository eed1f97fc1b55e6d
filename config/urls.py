from django.contrib import admin
from django.urls import include, path

from tables.api import api, bad_request, not_found, server_error

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("", include("tables.urls")),
]

# Django's error pages, JSON under /api/ (the API's documented error shape).
handler400 = bad_request
handler404 = not_found
handler500 = server_error
