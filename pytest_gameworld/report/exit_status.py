"""The exit statuses of the `gameworld` commands: what a CI job acts on. Numbered as pytest's own (pytest.ExitCode)
where the meaning is the same, so `gameworld play` (pytest's status) and the other commands read alike."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    OK = 0
    FAILED = 1  # the command did its job and found failures: a gate that failed, a check with problems, faulted runs
    REFUSED = 2  # the command could not do its job with what it was given: an unreadable file, a missing folder,
    #              sessions that cannot be merged, a host it will not bind
    USAGE_ERROR = 4  # a mistake in the command line, found before anything is played (pytest.ExitCode.USAGE_ERROR)
    BROKEN_PIPE = 141  # the reader of the output stopped early (`| head`): what a shell reports after SIGPIPE
