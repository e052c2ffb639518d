"""Categories: classify every memory into five fixed categories and grow subcategories within them.

classify.py / cues.py / prototypes.py decide the top-level category; cluster.py, naming.py and
evolve.py grow and maintain the subcategories (pure functions); service.py is the thin edge that
reads and writes them through a store.
"""
