from django.urls import path

from . import library, sharing, views

app_name = "fleets"

unit = "<int:pk>/units/<int:unit>/"
urlpatterns = [
    path("", library.fleet_list, name="list"),
    path("trash/", library.trash_list, name="trash"),
    path("export.zip", library.export_all, name="export_all"),
    path("trash/empty/", library.empty_trash, name="empty_trash"),
    path("<int:pk>/rename-fleet/", library.rename_fleet, name="rename_fleet"),
    path("<int:pk>/copy/", library.copy_fleet, name="copy_fleet"),
    path("<int:pk>/trash/", library.trash_fleet, name="trash_fleet"),
    path("<int:pk>/restore/", library.restore_fleet, name="restore_fleet"),
    path("<int:pk>/delete-forever/", library.delete_fleet, name="delete_fleet"),
    path("new/", views.fleet_new, name="builder"),
    path("add/", library.add_to_fleet, name="add_to"),
    path("import/", sharing.import_fleet, name="import"),
    path("code/<str:code>/", sharing.code_view, name="code"),
    path("code/<str:code>/cards/", sharing.code_print_options, name="code_print"),
    path("code/<str:code>/cards.pdf", sharing.code_cards, name="code_cards"),
    path("<int:pk>/share/", sharing.share_page, name="share"),
    path("<int:pk>/share/link/", sharing.share_link, name="share_link"),
    path("<int:pk>/export.json", sharing.export_file, name="export_file"),
    path("<int:pk>/export.txt", sharing.export_text, name="export_text"),
    path("<int:pk>/", views.fleet_detail, name="detail"),
    path("<int:pk>/head/", views.fleet_head, name="head"),
    path("<int:pk>/units/", views.fleet_units, name="units"),
    path("<int:pk>/meter/", views.fleet_meter, name="meter"),
    path("<int:pk>/problems/", views.fleet_problems, name="problems"),
    path("<int:pk>/settings/", views.fleet_settings, name="settings"),
    path("<int:pk>/add-ship/", views.add_ship, name="add_ship"),
    path("<int:pk>/new-squadron/", views.new_squadron, name="new_squadron"),
    path("<int:pk>/undo/", views.undo_remove, name="undo"),
    path(unit, views.fleet_unit, name="unit"),
    path(unit + "add-escort/", views.add_escort, name="add_escort"),
    path(unit + "move/", views.move_escort, name="move"),
    path(unit + "flagship/", views.set_flagship, name="flagship"),
    path(unit + "admiral/", views.set_admiral, name="admiral"),
    path(unit + "upgrades/add/", views.add_upgrade, name="add_upgrade"),
    path(unit + "upgrades/remove/", views.remove_upgrade, name="remove_upgrade"),
    path(unit + "upgrades/", views.set_upgrades, name="set_upgrades"),
    path(unit + "reorder/", views.reorder, name="reorder"),
    path(unit + "rename/", views.rename_unit, name="rename"),
    path(unit + "duplicate/", views.duplicate, name="duplicate"),
    path(unit + "remove/", views.remove, name="remove"),
]
