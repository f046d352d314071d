"""`companion export`, `replay` and `import`: games as JSON Lines logs (docs/log-format.md),
and finished games as plays (`export --format csv|bgstats`, docs/stats.md)."""

from __future__ import annotations

import json
import sys

from companion.cli.common import EXIT_USAGE, load_config, open_store, open_writer
from companion.errors import CompanionError, shown


def export(args) -> int:
    from companion.session import log as logmod
    from companion.session.checksum import describe
    from companion.session.history import log_times
    if args.format != "jsonl" and not args.list:
        return export_plays(args)
    if args.all or args.season is not None:
        print("companion: export: --all and --season write plays: add --format csv or "
              "--format bgstats (a log is one game: --game ID)", file=sys.stderr)
        return EXIT_USAGE
    cfg = load_config(args)
    if not cfg.journal_path().exists():
        if args.list:
            return 0  # no journal yet: no games
        raise CompanionError(f"no games yet: there is no journal at {cfg.journal_path()}")
    with open_store(cfg, read_only=True) as store:  # export never changes the journal
        games = store.games()
        if args.list:
            statuses = list_statuses(store)
            for g in games:
                kind, players = ((g.header.game, f"{len(g.header.players)} players")
                                 if g.header else ("?", "unreadable header"))
                print(f"{g.id}\t{kind}\t{players}\t{g.events} events\t{statuses[g.id]}")
            return 0
        if not games:
            raise CompanionError(f"no games in {cfg.journal_path()}")
        gid = args.game if args.game is not None else (store.open_id() or games[-1].id)
        if gid not in {g.id for g in games}:
            raise CompanionError(f"no game {gid} in the journal (companion export --list)")
        # The checksums first: an altered game is refused before anything is read into it.
        altered = store.verify(gid)
        if altered and not args.force:
            raise CompanionError(f"{describe(altered)}: the game was altered after it was "
                                 "recorded; companion export --force writes it anyway")
        broken = ""
        doubled = store.duplicates(gid) if store.schema >= 3 else 0
        if doubled:  # two companions wrote it: no one replay is the game
            broken = (f"game {gid} has {doubled} event{'s' * (doubled != 1)} recorded "
                      "twice at one place (two companions wrote the journal at once)")
        else:
            try:
                lines = list(logmod.dump(store.load(gid), log_times(store, gid)))
            except (CompanionError, ValueError, KeyError, TypeError) as e:
                # A damaged row (not UTF-8, not JSON, not a legal event) or a rules change.
                broken = f"game {gid} no longer replays ({e})"
        if broken:
            if not args.force:
                raise CompanionError(f"{broken}; companion export --force writes its stored "
                                     "rows as they are")
            lines = store.stored_lines(gid)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.writelines(line + "\n" for line in lines)
        except OSError as e:
            raise CompanionError(f"cannot write {args.output}: {e.strerror or e}") from None
    else:
        sys.stdout.writelines(line + "\n" for line in lines)
    for m in altered:
        print(f"altered: {m}", file=sys.stderr)
    if broken:
        print(f"{broken}: its stored rows were written as they are", file=sys.stderr)
    if altered or broken:
        print(f"written anyway (--force): game {gid} is not as it was recorded", file=sys.stderr)
    return 0


def export_plays(args) -> int:
    """Finished games as plays: one (--game, default the latest finished), every one (--all)
    or a season's (--season); unfinished games are skipped and counted on stderr."""
    from companion.session import exports, seasons as seasonmod
    from companion.session.checksum import describe
    from companion.session.tally import History
    cfg = load_config(args)
    season = None
    if args.season is not None:
        known = cfg.seasons()
        season = seasonmod.named(known, args.season)
        if season is None:
            names = f"known: {', '.join(s.name for s in known)}" if known else \
                "the config names none: [[stats.seasons]], docs/stats.md"
            print(shown(f"companion: export: --season: no season called "
                        f"{args.season.strip()!r} ({names})"), file=sys.stderr)
            return EXIT_USAGE
    many = args.all or season is not None
    if not cfg.journal_path().exists():
        if many:
            return _write_plays(args, [], many=True)
        raise CompanionError(f"no games yet: there is no journal at {cfg.journal_path()}")
    with open_store(cfg, read_only=True) as store:  # export never changes the journal
        history = History(store)  # the statistics' records: saved ones are not replayed
        records = history.records()
        left_out = history.left_out
        started = {row.id: row.created for row in store.history_rows()}
        if not many:
            finished = [r for r in records if r.finished]
            gid = args.game if args.game is not None else \
                (finished[-1].id if finished else None)
            if gid is None:
                raise CompanionError(f"no finished game in {cfg.journal_path()} yet: only a "
                                     "finished game is a play")
            record = next((r for r in records if r.id == gid), None)
            if record is None:
                why = next((x.why for x in left_out if x.game == gid), None)
                if why is None:
                    raise CompanionError(f"no game {gid} in the journal (companion export "
                                         "--list)")
                raise CompanionError(f"game {gid} cannot be exported: {why}")
            if not record.finished:
                raise CompanionError(f"game {gid} is not finished: only a finished game is a "
                                     f"play (companion export --game {gid} writes its log)")
            altered = store.verify(gid)
            if altered and not args.force:
                raise CompanionError(f"{describe(altered)}: the game was altered after it was "
                                     "recorded; companion export --force writes it anyway")
            # Named as in every game (a player's name as first written), not in this one's.
            play = exports.play_of(record, exports.first_names(records), cfg.seasons())
            code = _write_plays(args, [play], many=False)
            for m in altered:
                print(f"altered: {m}", file=sys.stderr)
            if altered:
                print(f"written anyway (--force): game {gid} is not as it was recorded",
                      file=sys.stderr)
            return code
    chosen, unfinished = exports.plays(records, cfg.seasons(), season)
    if unfinished:
        n = len(unfinished)
        print(f"{n} unfinished game{'s' * (n != 1)} left out (only a finished game is a "
              "play)", file=sys.stderr)
    for x in left_out:  # games that do not replay: named, as `companion stats` does
        if season is None or season.holds(started.get(x.game, -1.0)):
            print(shown(f"game {x.game} left out ({x.kind}): {x.why}"), file=sys.stderr)
    return _write_plays(args, chosen, many=True)


def _write_plays(args, chosen, *, many: bool) -> int:
    from companion.session import exports
    if args.format == "csv":
        text = exports.csv_text(chosen)
    else:
        text = exports.bgstats_text(chosen, many=many)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        except OSError as e:
            raise CompanionError(f"cannot write {args.output}: {e.strerror or e}") from None
    else:
        sys.stdout.write(text)
    return 0


def list_statuses(store) -> dict[int, str]:
    """Each game's status for `companion export --list`, by game id: "finished", "unfinished"
    (the open game, played or left for the start menu), "set aside" (parked by a new game or
    a resume, or an unfinished game an older companion closed: Resume offers it), "broken"
    (not resumed: export --force has its rows), "altered (checksum does not match)", "does
    not replay" or "kind not installed" (its game kind is not installed here)."""
    from companion import games
    from companion.session.tally import History
    history = History(store)  # the statistics' records: saved ones are not replayed again
    records = {r.id: r for r in history.records()}
    left_out = {x.game: x for x in history.left_out}
    out = {}
    for row in store.history_rows():
        record = records.get(row.id)
        if store.verify(row.id):
            out[row.id] = "altered (checksum does not match)"
        elif row.status == "broken":
            out[row.id] = "broken"
        elif record is None:
            kind = left_out[row.id].kind if row.id in left_out else "?"
            out[row.id] = "does not replay" if kind == "?" or games.find(kind) is not None \
                else "kind not installed"
        elif record.finished:
            out[row.id] = "finished"
        elif row.status == "open":
            out[row.id] = "unfinished"
        else:
            out[row.id] = "set aside"
    return out


def replay(args) -> int:
    from companion.session import log as logmod
    journal = logmod.read_file(args.file)
    if args.json:
        print(json.dumps(journal.summary()))
    else:
        # A log's names are anybody's text: each line shown escaped, as errors are.
        print("\n".join(shown(line) for line in
                        journal.game.text(journal.state, journal.header).split("\n")))
    return 0


def import_log(args) -> int:
    from companion.session import log as logmod
    from companion.session.stats import log_digest
    from companion.session.store import AlreadyImported
    # The replay of `companion replay`: nothing written. The times, if the log has them, are
    # kept beside it (the digest, like the rules, never sees them).
    journal, times = logmod.read_log_file(args.file)
    digest = log_digest(journal)
    cfg = load_config(args)
    with open_writer(cfg, "import") as store:
        if store.notice:  # a damaged journal was set aside: say so before anything else
            print(f"companion: {store.notice}", file=sys.stderr)
        try:
            gid = store.import_game(journal, digest, times)
        except AlreadyImported as e:
            print(shown(f"{args.file}: {e}"))
            return 0
        from companion.session.tally import History
        History(store, save=True).records()  # its statistics record, saved like the box's
    title, n = journal.game.title, len(journal.header.players)
    if journal.state.over:
        winners = " & ".join(journal.name(s) for s in journal.state.winners) or "no winner"
        print(f"imported game {gid}: {title}, {n} players, {len(journal.events)} events, "
              f"finished ({winners})")
    else:
        print(f"imported game {gid}: {title}, {n} players, {len(journal.events)} events, "
              "unfinished: the start menu offers to resume it")
    return 0
