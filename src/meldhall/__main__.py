"""``python -m meldhall`` runs the ``meldhall`` command."""

from meldhall.cli import main

if __name__ == "__main__":
    main()
