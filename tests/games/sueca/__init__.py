"""Sueca: its rules, a second reading of its scoring, random hands and the HTTP flow."""
