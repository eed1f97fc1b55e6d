from django.urls import path

from .desk import views as desk
from .pages import receipt_views, views

app_name = "tables"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/screen/", views.lobby_screen, name="lobby_screen"),
    path("good-roads/", views.good_roads, name="good_roads"),
    path("tables/<slug:slug>/", views.table_detail, name="detail"),
    path("tables/<slug:slug>/odds/", views.table_odds, name="odds"),
    path("tables/<slug:slug>/display/", views.table_display, name="display"),
    path("tables/<slug:slug>/tip/", views.round_tip, name="round_tip"),
    path("tables/<slug:slug>/asks/", views.road_asks, name="road_asks"),
    path("tables/<slug:slug>/shoes/<int:number>/cards/", views.table_cards, name="cards"),
    path("rounds/<str:round_id>/", receipt_views.round_receipt, name="receipt"),
    path("review/", desk.review_page, name="review"),
    path("review/rounds.csv", desk.export_csv, name="export_csv"),
    path("review/rounds.json", desk.export_json, name="export_json"),
    path("review/dealers/", desk.dealer_report_page, name="dealer_report"),
    path("review/dealers.csv", desk.dealer_report_csv, name="dealer_report_csv"),
]
