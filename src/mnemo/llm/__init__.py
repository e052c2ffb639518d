"""Optional LLM access: one small client for OpenAI-compatible chat-completions endpoints.

Nothing here runs unless a base URL and a model are configured (``MNEMO_LLM_BASE_URL``,
``MNEMO_LLM_MODEL``); mnemo never sends anything anywhere on its own.
"""

from mnemo.llm.client import ChatClient, LLMError, LLMSettings, client_from_config

__all__ = ["ChatClient", "LLMError", "LLMSettings", "client_from_config"]
