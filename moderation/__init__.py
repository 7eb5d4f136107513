"""Chat rules and the moderators' work.

Every chat line passes ``moderation.actions.chat_screen`` (mutes, flood, the watched list) before
anyone sees it; players report lines and players, moderators work the queue of cases (warn, mute,
suspend the chat), staff answer HELP. Also the automatic tournament warnings (ammonizioni) and
sanctions, and the collusion and dumping signals folded from settled hands. The chat transport
stays in ``lobby``. See docs/moderation.md.
"""
