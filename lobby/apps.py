from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = _("Lobby e tavoli")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Giro pazzo of Poker 5 carte offers Telesina (RULINGS P13); the poker engine never imports
        # the Telesina package itself, so the platform plugs it in once at start-up.
        from games.telesina import giro_pazzo
        from lobby import door
        from lobby.selectors import ledger_sources, open_tables_per_game, table_names
        from piattaforma import hooks

        giro_pazzo.register()
        hooks.on_player_blocked(door.tables_remove_player)  # suspension / self-exclusion ends live sessions
        hooks.on_sessions_in_use(door.tables_sessions_in_hand)
        hooks.on_open_tables(open_tables_per_game)  # the home page's counts
        hooks.on_table_names(table_names)  # moderation's pages name the table a line was said at
        hooks.on_ledger_sources(ledger_sources)  # the statement names its tables
        from lobby.chat import push

        hooks.on_chat_push(push)  # moderation's released lines and notices, delivered live
        hooks.on_game_deactivated(door.tables_game_deactivated)  # rules 004, "Disattivazione giochi"
        hooks.on_site_closing(door.tables_site_closing)  # rules 004, "Orari del sito"
        hooks.on_switch_preview(door.tables_switch_preview)
        from lobby.reports import rake_report

        hooks.on_report(rake_report)  # the back office's reports
        hooks.on_player_leave_tables(door.tables_remove_player)  # session-time limit, reality check "Esci"
