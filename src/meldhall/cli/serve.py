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
) -> None:
    """Serve the web table: a lobby, tables for friends and bots, replays.

    Tables are stored in a database and survive restarts; every seat gets an invite link.
    """
    import threading
    import webbrowser

    import uvicorn

    from meldhall.server.app import create_app
    from meldhall.server.config import Settings

    settings = Settings.from_env(database_url=database, bot_pause=bot_pause,
                                 allow_seeds=allow_seeds or None)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    typer.echo(f"meldhall: serving on {url} (database: {_safe(settings.resolved_database_url())})")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level,
                ws_max_size=1024 * 1024, ws_ping_interval=20, ws_ping_timeout=30,
                proxy_headers=False, server_header=False)


def _safe(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
