"""What the command line prints: progress bars on a terminal, balances as a table."""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Iterable, Iterator

import click

from events.money import format_amount
from projections.balances import listed
from projections.groups import member_name
from projections.settle_up import plan


@contextmanager
def progress(total: int, label: str):
    """Yield an ``advance()`` callable; draws a bar only when stderr is a terminal, with how
    many events a second go by ("replaying [####----] 41% 52,310 events/s")."""
    if not sys.stderr.isatty() or total < 1000:
        yield lambda n=1: None
        return
    started = time.monotonic()
    with click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True,
                           item_show_func=lambda rate: rate) as bar:
        pending = [0]

        def advance(n=1):
            pending[0] += n
            if pending[0] >= 1000:
                elapsed = max(time.monotonic() - started, 1e-6)
                bar.update(pending[0], f"{(bar.pos + pending[0]) / elapsed:,.0f} events/s")
                pending[0] = 0
        yield advance
        bar.update(max(0, total - bar.pos))  # the work is done: workers report in steps of 1000


def counted(items: Iterable, advance) -> Iterator:
    for item in items:
        advance()
        yield item


def _amounts_table(grow: dict, members: dict[str, int]) -> list[str]:
    width = max((len(m["name"]) for m in grow["members"]), default=4)
    digits = grow["digits"]
    return [f"  {m['name']:<{width}}  {format_amount(members.get(m['id'], 0), digits):>12}"
            for m in grow["members"]]


def print_balances(grow: dict, brow: dict, waiting: list) -> None:
    """The balances, what waits (``waiting``: (hand, entry) as the store lists them), and
    the transfers that settle up."""
    members = brow["members"]
    click.echo(f"Balances of {grow['name']} ({grow['currency']}), + is up, - is down:")
    for line in _amounts_table(grow, members):
        click.echo(line)
    click.echo(f"  total {format_amount(sum(members.values()), grow['digits'])}")
    print_pending(grow, waiting)
    moves, method = plan(members)
    if not moves:
        click.echo("Settle up: nothing to pay, everyone is even.")
    else:
        click.echo(f"Settle up ({method}, {len(moves)} transfers):")
    for src, dst, amount in moves:
        click.echo(f"  {member_name(grow, src)} pays {member_name(grow, dst)} "
                   f"{format_amount(amount, grow['digits'])} {grow['currency']}")


def print_pending(grow: dict, entries: list) -> None:
    """The settlements that do not count yet (``entries``: (hand, entry) as the store lists
    them), one line each."""
    waiting = listed(entries, grow["digits"])
    if not waiting:
        return
    click.echo(f"Not counted yet ({len(waiting)}): each waits until every payer confirms it, or the admin corrects it")
    for entry in waiting:
        paid = ", ".join(f"{member_name(grow, p['member'])} {p['amount']}" for p in entry["payouts"])
        click.echo(f"  hand {entry['hand']} ({entry['state']}): {paid}")


def print_rebuilt_balances(report, names: dict) -> None:
    for group, members in report.balances.items():
        grow = names.get(group)
        if grow is None:
            continue
        click.echo(f"Balances of {grow['name']} rebuilt from the log:")
        for line in _amounts_table(grow, members):
            click.echo(line)


def print_stats(report: dict, currency: str) -> None:
    for m in report["members"]:
        click.echo(f"{m['name']}: {m['hands_played']} hands, {m['hands_won']} won")
        for contract, c in sorted(m["contracts"].items()):
            click.echo(f"  {contract}: {c['played']} played, {c['won']} won")
        for label, which in (("best", "best_hand"), ("worst", "worst_hand")):
            if m[which]:
                best = m[which]
                click.echo(f"  {label} hand: {best['amount']} {currency} ({best['contract']}, {best['hand']})")
        if m["balance_after"]:
            click.echo(f"  balance now: {m['balance_after'][-1]['balance']} {currency}")


def print_groups(groups: list[dict], store: str) -> None:
    """``bitka groups`` as a table: id, name, members, last activity."""
    if not groups:
        click.echo(f"there are no groups in {store} yet (bitka demo makes one)")
        return
    rows = [("id", "name", "members", "last activity")]
    rows += [(g["id"], g["name"] or "?", str(g["members"]), _when(g["last_activity"])) for g in groups]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for gid, name, members, when in rows:
        click.echo(f"{gid:<{widths[0]}}  {name:<{widths[1]}}  {members:>{widths[2]}}  {when}".rstrip())


def _when(recorded_at: str) -> str:
    """A recorded_at as a person reads it: ``2026-11-29 21:14 UTC``."""
    if len(recorded_at) >= 16 and recorded_at[10] == "T" and recorded_at.endswith("Z"):
        return f"{recorded_at[:10]} {recorded_at[11:16]} UTC"
    return recorded_at


def check_plot_target(path: str) -> None:
    """Refuse, before any work, a --plot file that cannot be written or drawn."""
    target = Path(path)
    if not path.strip():
        raise click.UsageError("--plot needs a file name, such as evenings.png")
    if not target.parent.is_dir():
        raise click.UsageError(f"--plot {path}: there is no directory {target.parent}")
    if target.is_dir():
        raise click.UsageError(f"--plot {path} is a directory: name a .png file")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.UsageError(f"--plot needs matplotlib, which is not installed here: {plot_install_hint()}") from None
    _check_writable(target)
    from matplotlib.figure import Figure
    kinds = Figure().canvas.get_supported_filetypes()
    kind = target.suffix.lstrip(".").lower()
    if kind not in kinds:
        what = f".{kind} files" if kind else "a file without an extension"
        raise click.UsageError(f"--plot {path}: matplotlib cannot draw {what}; name a .png file "
                               f"(or one of {', '.join(sorted(kinds))})")


def _check_writable(target: Path) -> None:
    """Open the file as the drawing will (and remove it again if it was not there): the one
    test of writing that holds for every user, root included, and every file system."""
    existed = target.exists()
    try:
        with open(target, "ab"):
            pass
    except OSError as e:
        raise click.UsageError(f"--plot {target} cannot be written ({e.strerror or e})") from None
    finally:
        if not existed:
            target.unlink(missing_ok=True)


CODE = Path(__file__).resolve().parents[1]  # the folder holding cli/: a checkout, or site-packages


def plot_install_hint(code: Path = CODE) -> str:
    """How to add matplotlib to this bitka. ``pip install 'bitka[plot]'`` works only where
    bitka came from a package index; a checkout (run in place, installed editable or from its
    folder) takes the README's ``pip install '.[plot]'``. Running in place: ``code`` (the
    folder holding cli/) has bitka's pyproject.toml. Installed: pip records an install from a
    folder, an archive or a VCS URL in the distribution's direct_url.json (PEP 610), and none
    from an index."""
    if (code / "pyproject.toml").is_file():
        return f"pip install '.[plot]' in {code}"
    try:
        from_index = metadata.distribution("bitka").read_text("direct_url.json") is None
    except metadata.PackageNotFoundError:
        from_index = False
    return "pip install 'bitka[plot]'" if from_index else "pip install '.[plot]' in the bitka checkout"


def hands_counted(envelopes: Iterable) -> dict[int, int]:
    """For each event's seq, how many of the group's hands had come to count by then (a
    settlement that counts at once, or its confirmation): the x-axis of the balance chart."""
    counted: set[str] = set()
    at: dict[int, int] = {}
    for env in envelopes:
        if (env.type == "settlement" and env.data.get("confirmed", True)) or env.type == "confirmation":
            counted.add(env.hand)
        at[env.seq] = len(counted)
    return at


def plot_balances(report: dict, hands: dict[int, int], path: str, title: str, currency: str) -> None:
    """Every member's balance after each money event, drawn with matplotlib (the plot extra)
    against the hands counted so far (``hands``: seq to hands, from ``hands_counted``)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.ticker import MaxNLocator
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    last = max(hands.values(), default=0)
    for m in report["members"]:
        points = m["balance_after"]  # a point where the balance moved: it holds until the next, and to the end
        ys = [0.0] + [float(p["balance"]) for p in points]
        axes.step([0] + [hands[p["seq"]] for p in points] + [last], ys + ys[-1:], where="post", label=m["name"])
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set(title=title, xlabel="hands", ylabel=f"balance ({currency})")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend()
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        pyplot.close(figure)
