"""What every class server shares, whatever its connections: the options, the seats, the
class table, a connection's limits, and what a listener may ask of the room. The terminal
server (serve/) and the browser page (web/) both stand on it; neither imports the other."""
