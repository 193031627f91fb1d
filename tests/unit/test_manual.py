"""The manual ships with the code: the README and docs/ link only to files in the repository."""
from __future__ import annotations

import re
from pathlib import Path

from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
MANUAL = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_manual_links_only_to_files_in_the_repository():
    for page in MANUAL:
        text = page.read_text(encoding="utf-8")
        assert "../shared" not in text, page.name
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            assert not re.match(r"[a-z]+:", target), (page.name, target)
            path = target.split("#", 1)[0]
            if path:
                linked = (page.parent / path).resolve()
                assert linked.is_relative_to(ROOT) and linked.exists(), (page.name, target)


def test_docs_api_has_each_games_forms_and_a_worked_example():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for game in (g.title for g in GAMES.values()):
        assert f"### {game}\n" in text, f"docs/api.md has no section on {game}"
        section = text.split(f"### {game}\n", 1)[1].split("\n### ", 1)[0]
        assert "**Deal**" in section and "**Result**" in section and "Worked example" in section, game
