from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tornei")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from piattaforma import hooks
        from tournaments import operations

        hooks.on_game_deactivated(
            operations.tournaments_game_deactivated
        )  # rules 004, "Disattivazione giochi"
        hooks.on_game_reactivated(operations.tournaments_game_reactivated)
        hooks.on_switch_preview(operations.tournaments_switch_preview)
        from tournaments.reports import tournaments_report

        hooks.on_report(tournaments_report)
        from tournaments.running import match_record, table_note

        hooks.on_match_ended(match_record)  # a tournament learns its matches' results only here
        from tournaments.actions import registrations_withdraw_blocked

        hooks.on_player_blocked(registrations_withdraw_blocked)  # his open registrations refunded
        hooks.on_tournament_table_note(table_note)  # the pairs' free leave (rules 004)
        from tournaments.calls import player_calls

        hooks.on_player_calls(player_calls)  # his match's table, on every page he opens
        from tournaments.rankings import entry_standing

        hooks.on_entry_standing(entry_standing)  # reserved entries by leaderboard and wins

        from tournaments.selectors import ledger_sources, training_tournaments

        hooks.on_ledger_sources(ledger_sources)  # the statement names its tournaments
        hooks.on_training_tournaments(training_tournaments)  # the training section's lobby
