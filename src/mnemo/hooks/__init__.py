"""Integrations that run inside another tool's lifecycle (Claude Code hooks): parse, act, never break it."""
