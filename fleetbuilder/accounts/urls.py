from django.contrib.auth import views as auth_views
from django.urls import path

from . import export, views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    path("signup/", views.signup, name="signup"),
    path("delete/", views.delete_account, name="delete"),
    path("export.zip", export.export_account, name="export"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", views.password_change, name="password_change"),
    path("password/changed/", views.password_change_done, name="password_change_done"),
    path("password/reset/", views.password_reset, name="password_reset"),
    path("password/reset/sent/", views.password_reset_done, name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        views.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("password/reset/done/", views.password_reset_complete, name="password_reset_complete"),
]
