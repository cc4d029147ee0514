"""``meldhall serve``: the web table (FastAPI on uvicorn) — play in the browser."""

from __future__ import annotations

from typing import Annotated

import typer

from meldhall.cli.app import app


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[str | None, typer.Option(
        help="SQLAlchemy URL, e.g. postgresql://user:pw@host/db (default: "
             "$MELDHALL_DATABASE_URL, else a SQLite file in your data directory).")] = None,
    open_browser: Annotated[bool, typer.Option(
        "--open", help="Open the lobby in a web browser.")] = False,
    bot_pause: Annotated[float | None, typer.Option(
        help="Seconds a bot waits before each move (default 0.8; 0 for tests).")] = None,
    allow_seeds: Annotated[bool, typer.Option(
        "--allow-seeds", help="Accept a seed when a table is created (tests, demos: whoever "
                              "knows the seed knows the deal).")] = False,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    disconnect_timeout: Annotated[float | None, typer.Option(
        help="Seconds a seat to act may be away before a bot plays for it, at tables with a "
             "turn clock (default 60; stored with each table).")] = None,
    min_clock: Annotated[float | None, typer.Option(
        help="Shortest turn clock or disconnect timeout a table may ask for (default 10 s; "
             "tests and demonstrations: 1).")] = None,
    bot_time_budget: Annotated[float | None, typer.Option(
        help="Seconds a bot's decision may take before the heuristic's move is played "
             "instead (default 30).")] = None,
    hand_end_wait: Annotated[float | None, typer.Option(
        help="At a hand's end whose next deal is a bot's, seconds the bot waits for the "
             "people at the table to close the score (default 60; 0: no wait).")] = None,
    bots_from: Annotated[list[str] | None, typer.Option(
        help="Add the bots of a module or Python file (its BOTS table: name -> factory(game)) "
             "to this server: to try one's own bot in the browser. Repeatable.")] = None,
) -> None:
    """Serve the web table: a lobby, tables for friends and bots, replays.

    Tables are stored in a database and survive restarts; every seat gets an invite link.
    """
    import signal
    import threading
    import webbrowser

    import uvicorn

    from meldhall.server.app import create_app
    from meldhall.server.config import Settings

    try:
        settings = Settings.from_env(database_url=database, bot_pause=bot_pause,
                                     allow_seeds=allow_seeds or None,
                                     disconnect_timeout=disconnect_timeout,
                                     min_clock=min_clock, bot_time_budget=bot_time_budget,
                                     hand_end_wait=hand_end_wait,
                                     bots_from=tuple(bots_from) if bots_from else None)
    except ValueError as exc:            # a timing option that is not a positive number
        typer.echo(f"meldhall serve: {exc}", err=True)
        raise typer.Exit(2) from None
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    db_url = settings.resolved_database_url()
    from meldhall.errors import OptionsError

    try:
        app_ = create_app(settings)
    except OptionsError as exc:          # --bots-from: a module that cannot be used
        typer.echo(f"meldhall serve: {exc}", err=True)
        raise typer.Exit(2) from None

    class _Server(uvicorn.Server):
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets=sockets)   # migrations, rebuilt tables, bound port
            if self.started and not self.should_exit:
                # only now does the server accept connections
                typer.echo(f"meldhall: serving on {url} (database: {_describe(db_url)})")
                if open_browser:
                    threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

        async def shutdown(self, sockets=None) -> None:
            await super().shutdown(sockets=sockets)
            if self.force_exit:
                # a second Ctrl-C ("force quit") skips the application's shutdown: stop the
                # bots and close the storage (final checkpoint) while the event loop still
                # runs, before uvicorn re-raises the signal and asyncio tears the loop down
                await app_.state.manager.stop()

    config = uvicorn.Config(app_, host=host, port=port, log_level=log_level,
                            ws_max_size=1024 * 1024, ws_ping_interval=20, ws_ping_timeout=30,
                            proxy_headers=False, server_header=False)
    try:
        _Server(config).run()
    finally:
        # the last safety net (idempotent): the storage is closed even if the loop died
        # early.  A further Ctrl-C must not cut the final checkpoint short (it takes
        # milliseconds), so SIGINT is ignored meanwhile.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            app_.state.manager.close()
        finally:
            signal.signal(signal.SIGINT, previous)


def _describe(url: str) -> str:
    """The URL without its password; for a SQLite file, its absolute path too."""
    from pathlib import Path

    from sqlalchemy.engine import make_url

    u = make_url(url)
    if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:":
        return f"{_safe(url)} = {Path(u.database).expanduser().resolve()}"
    return _safe(url)


def _safe(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
