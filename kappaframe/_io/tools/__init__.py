"""The annotation tools' files: their exports in (the long frame), the queue out.

``registry`` (the tools, and reading their bytes), ``base`` (what the readers share),
one module per tool (``label_studio``, ``prodigy``, ``doccano``: how its records become
ratings, and its import format written), ``annotations`` (``kf.read_annotations``).
"""
