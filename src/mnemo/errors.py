"""The few exception types mnemo raises; every public failure is one of these."""

from __future__ import annotations


class MnemoError(Exception):
    """Base class: catching this catches every error mnemo raises on purpose."""


class ConfigError(MnemoError):
    """A setting is missing, malformed or contradicts the store it is used with."""


class StoreError(MnemoError):
    """The store could not be opened, migrated, read or written."""


class InputError(MnemoError, ValueError):
    """The caller gave content, a timestamp, a query or a file mnemo cannot accept."""


class MissingExtra(MnemoError, ImportError):
    """An optional dependency is not installed; the message names the extra to install."""

    def __init__(self, extra: str, module: str, purpose: str) -> None:
        self.extra = extra
        self.module = module
        super().__init__(
            f"{purpose} needs the '{module}' package, which is not installed. "
            f"Install it with: pip install 'mnemo[{extra}]'"
        )
