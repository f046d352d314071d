"""`companion screens`: every panel screen as a PNG (docs/screens); the gallery is imported
only here, never by the running companion."""

from __future__ import annotations

from pathlib import Path

from companion.cli.common import load_config
from companion.errors import CompanionError


def screens(args) -> int:
    from companion.gallery.screens import write_all
    cfg = load_config(args)
    try:
        written = write_all(Path(args.outdir), cfg, scale=args.scale)
    except FileExistsError:  # mkdir's word for "a file is in the way"
        raise CompanionError(f"cannot write the screens to {args.outdir}: it exists and is "
                             "not a directory") from None
    except OSError as e:
        raise CompanionError(f"cannot write the screens to {args.outdir}: "
                             f"{e.strerror or e}") from None
    print(f"wrote {len(written)} screens to {args.outdir}")
    return 0
