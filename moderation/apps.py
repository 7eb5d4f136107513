from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderazione"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from moderation import conduct, dumping, selectors
        from piattaforma import hooks

        hooks.on_tournament_conduct(conduct.on_tournament_conduct)
        hooks.on_tournament_turn_completed(conduct.on_tournament_turn_completed)
        hooks.on_hand_settled(dumping.on_hand_settled)
        hooks.on_tournament_entry_check(selectors.tournament_entry_refusal)
        hooks.on_tournament_warnings(selectors.tournament_warnings)
        hooks.on_staff_waiting(selectors.moderation_waiting)  # the back office's index: what waits
        hooks.on_tournament_participation_void(conduct.on_tournament_participation_void)
        hooks.on_tournament_match_voided(conduct.on_tournament_match_voided)
