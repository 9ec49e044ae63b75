"""The one base of every error the user's input causes: :class:`UserError`.

Rank 0 (beside :mod:`core.text.limits`), so every wing can raise one. A
user error is something the reader can fix (a file too big, a JSON that does
not parse, an unknown tokenizer id, a pattern that does not compile): the CLI
prints it as one line and exits 2, the pages show it as a notice. Anything
else that escapes an analysis is a bug: the CLI exits 1 with a one-line hint
(:func:`core.cli.main`), never pretending the input was wrong.

``UserError`` derives from ``ValueError`` so that code which already catches
``ValueError`` around user input keeps working; what decides "user or bug" is
this class, never ``ValueError`` itself. A library's ``ValueError`` on user
input is wrapped into a ``UserError`` where it is raised (:func:`user_error`).
"""
from __future__ import annotations

__all__ = ["UserError", "user_error"]


class UserError(ValueError):
    """Input the user can fix: one line, CLI exit status 2. The message may be a :class:`core.i18n.Message`."""




def user_error(exc: BaseException) -> UserError:
    """``exc`` (a library's complaint about the user's input) as a :class:`UserError` with the same message.

    A ``UserError`` is returned as it is. Use as ``raise user_error(exc) from None`` at the one place
    where a library is known to refuse user input with a plain exception.

    >>> str(user_error(ValueError("bad pattern")))
    'bad pattern'
    >>> e = UserError("x"); user_error(e) is e
    True
    """
    if isinstance(exc, UserError):
        return exc
    return UserError(*exc.args) if exc.args else UserError(type(exc).__name__)
