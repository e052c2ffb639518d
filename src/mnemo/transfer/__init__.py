"""Moving a whole store between backends: ``copy_store`` (streaming, resumable) and ``verify_stores``."""

from mnemo.transfer.copy import CopyReport, copy_store
from mnemo.transfer.verify import VerifyReport, verify_stores

__all__ = ["CopyReport", "VerifyReport", "copy_store", "verify_stores"]
