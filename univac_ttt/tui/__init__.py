"""prompt_toolkit helpers shared by the full-screen front ends (console, monitor, kiosk)."""
