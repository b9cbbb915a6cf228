"""The museum kiosk: an unattended console with attract mode, locked keys and tallies."""
