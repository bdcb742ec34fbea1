"""The view layer: a view of a table as data — the view state and what it draws (``state``), the
level of detail a big tree is sent in (``lod``), the binary payload the front end decodes
(``payload``), selections and the view in words (``describe``). No widget: the widget layer and
headless export both build on it."""
