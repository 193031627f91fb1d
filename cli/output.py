"""What the command line prints: progress bars on a terminal, balances as a table."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterable, Iterator

import click

from events.money import format_amount
from projections.balances import pending_view
from projections.groups import member_name
from projections.settle_up import plan


@contextmanager
def progress(total: int, label: str):
    """Yield an ``advance()`` callable; draws a bar only when stderr is a terminal."""
    if not sys.stderr.isatty() or total < 1000:
        yield lambda n=1: None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        pending = [0]

        def advance(n=1):
            pending[0] += n
            if pending[0] >= 1000:
                bar.update(pending[0])
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


def print_balances(grow: dict, brow: dict) -> None:
    members = brow["members"]
    click.echo(f"Balances of {grow['name']} ({grow['currency']}), + is up, - is down:")
    for line in _amounts_table(grow, members):
        click.echo(line)
    click.echo(f"  total {format_amount(sum(members.values()), grow['digits'])}")
    print_pending(grow, brow)
    moves, method = plan(members)
    if not moves:
        click.echo("Settle up: nothing to pay, everyone is even.")
    else:
        click.echo(f"Settle up ({method}, {len(moves)} transfers):")
    for src, dst, amount in moves:
        click.echo(f"  {member_name(grow, src)} pays {member_name(grow, dst)} "
                   f"{format_amount(amount, grow['digits'])} {grow['currency']}")


def print_pending(grow: dict, brow: dict) -> None:
    """The settlements that do not count yet, one line each."""
    waiting = pending_view(brow)
    if not waiting:
        return
    click.echo(f"Not counted yet ({len(waiting)}): a payer confirms, or the admin corrects")
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


def check_plot_target(path: str) -> None:
    """Refuse, before any work, a --plot file that cannot be written or drawn."""
    from pathlib import Path
    target = Path(path)
    if not target.parent.is_dir():
        raise click.UsageError(f"--plot {path}: there is no directory {target.parent}")
    if target.is_dir():
        raise click.UsageError(f"--plot {path} is a directory: name a .png file")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.UsageError("--plot needs matplotlib, which is not installed: pip install matplotlib "
                               "(in a checkout of bitka: pip install '.[plot]')") from None


def plot_balances(report: dict, path: str, title: str, currency: str) -> None:
    """Every member's balance after each money event, drawn with matplotlib (bitka[plot])."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    for m in report["members"]:
        points = m["balance_after"]
        axes.step([p["seq"] for p in points], [float(p["balance"]) for p in points], where="post", label=m["name"])
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set(title=title, xlabel="event (seq)", ylabel=f"balance ({currency})")
    axes.legend()
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        pyplot.close(figure)
