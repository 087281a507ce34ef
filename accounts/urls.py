from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import push_views, views
from accounts.language import AccountLanguagePasswordResetForm

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/change/",
        views.PasswordChangeView.as_view(success_url=reverse_lazy("accounts:password_change_done")),
        name="password_change",
    ),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path(
        "password/reset/",
        views.PasswordResetView.as_view(
            success_url=reverse_lazy("accounts:password_reset_done"),
            email_template_name="registration/password_reset_email.txt",
            form_class=AccountLanguagePasswordResetForm,
        ),
        name="password_reset",
    ),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(success_url=reverse_lazy("accounts:password_reset_complete")),
        name="password_reset_confirm",
    ),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("u/<name:username>/", views.profile, name="profile"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/email/", views.change_email, name="email_change"),
    path("settings/email/confirm/<str:token>/", views.confirm_email, name="email_confirm"),
    path("email/verify/<str:token>/", views.verify_email, name="email_verify"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("push/subscribe/", push_views.subscribe, name="push-subscribe"),
    path("push/unsubscribe/", push_views.unsubscribe, name="push-unsubscribe"),
]
