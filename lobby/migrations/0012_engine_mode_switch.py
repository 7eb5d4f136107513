"""The giochi a puntate's one tournament switch, ``mode`` "cash" or "tournament" (games.engine.MODE_OPTION),
in the configs and running states the lobby stores: Poker 5 carte and Telesina spelled it as the boolean
``cash``, Chemin de fer as ``mode: "torneo"``. Stored hands replay (``lobby.replay``) and running hands
go on with the engines as they are; the key keeps its place in each dict. The spellings as of this
migration."""

from django.db import migrations

POKER_FAMILY = ("poker5", "telesina")


def _renamed(config):
    """The config with the old spelling replaced in place, or None when it has none."""
    if not isinstance(config, dict):
        return None
    if "cash" in config and isinstance(config["cash"], bool):
        mode = "cash" if config["cash"] else "tournament"
        return {("mode" if k == "cash" else k): (mode if k == "cash" else v) for k, v in config.items()}
    if config.get("mode") == "torneo":
        return {**config, "mode": "tournament"}
    return None


def one_tournament_switch(apps, schema_editor):
    games = (*POKER_FAMILY, "chemin")
    Hand = apps.get_model("lobby", "Hand")
    changed = []
    for hand in Hand.objects.filter(game__in=games).only("pk", "config").iterator(chunk_size=2000):
        new = _renamed(hand.config)
        if new is not None:
            hand.config = new
            changed.append(hand)
        if len(changed) >= 2000:
            Hand.objects.bulk_update(changed, ["config"])
            changed = []
    if changed:
        Hand.objects.bulk_update(changed, ["config"])
    TableRuntime = apps.get_model("lobby", "TableRuntime")
    for rt in TableRuntime.objects.filter(state__isnull=False).select_related("table"):
        state = rt.state
        if not isinstance(state, dict) or (rt.game or rt.table.game) not in games:
            continue
        key = "cfg" if "cfg" in state else "config"
        new = _renamed(state.get(key))
        if new is not None:
            state[key] = new
            rt.save(update_fields=["state"])
    # The switch is a table setting the lobby passes (``Engine.table_settings``), never a game option.
    for name in ("Table", "TableTemplate"):
        model = apps.get_model("lobby", name)
        for row in model.objects.filter(game__in=games).only("pk", "config"):
            if isinstance(row.config, dict) and ("cash" in row.config or row.config.get("mode") == "torneo"):
                row.config = {k: v for k, v in row.config.items() if k not in ("cash", "mode")}
                row.save(update_fields=["config"])


class Migration(migrations.Migration):
    dependencies = [("lobby", "0011_reserved_tables")]

    operations = [migrations.RunPython(one_tournament_switch, migrations.RunPython.noop)]
