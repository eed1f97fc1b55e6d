"""The "reviewer" group: members view every table, shoe, round and audit event and may
void rounds, and nothing else (no add, change or delete). Its members must be staff to
reach admin at all; an owner makes them so.

Permissions are created here (as post_migrate would later, which leaves existing ones
alone), because on a fresh database they do not exist yet when this migration runs."""

from django.db import migrations

GROUP = "reviewer"
VIEWED = ["table", "shoe", "round", "roundaudit"]


def reviewer_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    wanted = []
    for model in VIEWED:
        content_type, _ = ContentType.objects.get_or_create(app_label="tables", model=model)
        verbose = "round audit event" if model == "roundaudit" else model
        wanted.append(
            Permission.objects.get_or_create(
                content_type=content_type, codename=f"view_{model}", defaults={"name": f"Can view {verbose}"}
            )[0]
        )
    round_type = ContentType.objects.get(app_label="tables", model="round")
    wanted.append(
        Permission.objects.get_or_create(
            content_type=round_type, codename="void_round", defaults={"name": "Can void a round"}
        )[0]
    )
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.set(wanted)


def no_reviewer_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0004_round_audit"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(reviewer_group, no_reviewer_group)]
