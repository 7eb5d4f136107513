"""Chain the audit rows written before the hash chain existed, in the order they were written."""

from django.db import migrations


def chain_existing_rows(apps, schema_editor):
    from piattaforma.audit import GENESIS, HEAD_PK, canonical_data, row_hash_of

    AuditLog = apps.get_model("piattaforma", "AuditLog")
    AuditChain = apps.get_model("piattaforma", "AuditChain")
    prev, seq = GENESIS, 0
    for row in AuditLog.objects.order_by("created_at", "id").iterator(chunk_size=2000):
        seq += 1
        row.seq, row.prev_hash, row.data = seq, prev, canonical_data(row.data)
        row.row_hash = row_hash_of(row)
        row.save(update_fields=["seq", "prev_hash", "row_hash", "data"])
        prev = row.row_hash
    AuditChain.objects.update_or_create(pk=HEAD_PK, defaults={"last_seq": seq, "last_hash": prev})


class Migration(migrations.Migration):
    dependencies = [("piattaforma", "0005_audit_chain_fields")]

    operations = [migrations.RunPython(chain_existing_rows, migrations.RunPython.noop)]
