"""Exceptions of the superovoid package: every one carries the C status code.

Error                 status (negative C status), message
 +-- BatchError       + index (first failed pair), result (the whole batch answer)
 +-- UrdfError        + source, line, link, attribute (where in the document)
      +-- SceneError  + name (the joint or link at fault)
"""


class Error(RuntimeError):
    """A failed superovoid call: ``status`` is the C status code (negative),
    ``message`` the library's message (``str(e)``)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self):
        # The attributes set after construction (a UrdfError's source,
        # line, link and attribute, a SceneError's name) travel as state.
        return (type(self), (self.status, self.message), self.__dict__)


class BatchError(Error):
    """A batch in which some pair failed (``check=True``): ``status`` and
    ``index`` name the first failed pair; ``result`` is the whole answer,
    with every pair's status in ``result.status``."""

    def __init__(self, status, message, index=None, result=None):
        super().__init__(status, message)
        self.index = index
        self.result = result

    def __reduce__(self):
        return (type(self), (self.status, self.message, self.index, None))


class UrdfError(Error):
    """A rejected URDF, SRDF or mesh: ``source``, ``line``, ``link`` and
    ``attribute`` say where (empty or 0 when unknown)."""

    source = ""
    line = 0
    link = ""
    attribute = ""


class SceneError(UrdfError):
    """A rejected scene input (unknown joint or link, a position outside the
    limits, a mesh that cannot be built): ``name`` is the joint or link."""

    name = ""
