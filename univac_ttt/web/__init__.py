"""The browser front end: `univac-ttt serve --web`, one UNIVAC per tab (docs/architecture.md)."""
