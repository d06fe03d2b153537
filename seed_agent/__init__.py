"""The seed agent: the first node of every run (task agent + meta agent in one program).

Agent code is untrusted: the engine never imports it and runs it only in a sandbox.
It may import only the standard library and openai (httpx comes with it)."""

__version__ = "0.1.0"
