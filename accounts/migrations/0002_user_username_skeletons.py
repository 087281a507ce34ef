from django.db import migrations, models


def fill_skeletons(apps, schema_editor):
    """Give existing players their skeletons; of earlier look-alikes only the first keeps each one."""
    from accounts import usernames

    User = apps.get_model("accounts", "User")
    seen = {"username_skeleton": set(), "username_glyph_skeleton": set()}
    for pk, username in User.objects.order_by("pk").values_list("pk", "username").iterator():
        keys = {
            "username_skeleton": usernames.skeleton(username),
            "username_glyph_skeleton": usernames.glyph_skeleton(username),
        }
        fresh = {field: key for field, key in keys.items() if key not in seen[field]}
        for field, key in fresh.items():
            seen[field].add(key)
        if fresh:
            User.objects.filter(pk=pk).update(**fresh)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='username_glyph_skeleton',
            field=models.TextField(editable=False, null=True, unique=True),
        ),
        migrations.AddField(
            model_name='user',
            name='username_skeleton',
            field=models.TextField(editable=False, null=True, unique=True),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
    ]
