from django.db import migrations


def schedule_retention(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.update_or_create(
        name="evidence-retention",
        defaults={
            "func": "decisions.tasks.evidence_retention",
            "schedule_type": "D",
            "repeats": -1,
        },
    )


def unschedule_retention(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name="evidence-retention").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("decisions", "0005_review_workflow"),
        ("django_q", "0018_task_success_index"),
    ]

    operations = [migrations.RunPython(schedule_retention, unschedule_retention)]
