"""What the group page shows its admin beside everything else: whether results wait for a
payer's confirmation, and how the server's backups stand, in sentences."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import cached_property

from flask import current_app
from flask_babel import format_datetime, format_timedelta, gettext as _

from events import backups
from projections.groups import confirmations
from .. import health


def admin_context(grow: dict) -> dict:
    """What the group page shows the admin beside everything else."""
    return {"confirmations": confirmations(grow), "backups": BackupsSaid()}


class BackupsSaid:
    """How the server's backups stand, in sentences for the admin's part of the group page:
    when the last good one was made, and a warning when it is older than twice the interval,
    when the newest is damaged on disk, or when the last attempt failed. Read only when the
    page shows it (to the admin)."""

    @cached_property
    def sentences(self) -> list[tuple[str, str]]:
        """(class, sentence) pairs, in the order the page says them."""
        state = health.backup_status(current_app)
        if state is None:
            return [("help", _("This server is not set to make backups on a schedule."))]
        interval = format_timedelta(timedelta(seconds=state.every), threshold=1)
        said = []
        if state.last_good is None:
            said.append(("", _("No good backup of this server has been made yet.")))
        else:
            said.append(("", _("The last good backup of this server was made %(when)s, %(age)s ago.",
                               when=_moment(state.last_good.made_at),
                               age=format_timedelta(timedelta(seconds=state.age), threshold=1))))
        if not state.fresh:
            said.append(("notice", _("Warning: there has been no good backup for more than twice the backup interval "
                                     "(%(interval)s): backups may have stopped. Tell whoever runs this server.",
                                     interval=interval)))
        for name, _problem in state.damaged:
            said.append(("notice", _("Warning: the backup %(name)s does not count: it no longer matches its "
                                     "manifest, or its manifest is not signed with this server's key, or it is "
                                     "dated in the future. bitka restore names which.", name=name)))
        if state.failed is not None:
            said.append(("notice", _("Warning: the last backup attempt, %(when)s, failed; the server's log says why.",
                                     when=_moment(backups.instant(state.failed["at"])) if state.failed.get("at")
                                     else "?")))
        return said


def _moment(epoch: float) -> str:
    """An instant as the reader's language writes a date and time (UTC), as the log's are."""
    return format_datetime(datetime.fromtimestamp(epoch, timezone.utc), "medium") + " UTC"
