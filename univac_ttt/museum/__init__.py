"""The museum exhibit's behaviour, apart from any screen: attract mode, idle reset, captions,
the daily tally, printouts and the staff PIN. The terminal kiosk (kiosk/) and the browser's
museum mode (web/) both drive it; it imports neither."""
