from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from tables.access import login
from tables.api.core import bad_request, not_found, server_error
from tables.api.site import api
from tables.desk import views as desk


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Pages that name no icon (the admin's, the API docs') make browsers ask for
    /favicon.ico: our icon, not a 404."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    path("admin/login/", login.login),  # admin's own login view, its throttle's refusals answered 429
    path("admin/", admin.site.admin_view(desk.admin_index)),  # admin's index, the reviewer's desk above it
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the switch on every page
    path("", include("tables.urls")),
]

# Django's error pages, JSON under /api/ (the API's documented error shape).
handler400 = bad_request
handler404 = not_found
handler500 = server_error
