"""TCP, UDP and DNS egress: to the internet, to the host's loopback listeners."""

import socket
import sys

tcp_port, udp_port = int(sys.argv[1]), int(sys.argv[2])
for host, port in [("1.1.1.1", 80), ("8.8.8.8", 53), ("10.0.2.2", 80), ("172.17.0.1", 80), ("127.0.0.1", tcp_port)]:
    try:
        socket.create_connection((host, port), timeout=2).close()
        print(f"ESCAPED: tcp connect {host}:{port}")
    except OSError as exc:
        print(f"blocked: tcp {host}:{port}: {exc}")
for host, port in [("8.8.8.8", 53), ("127.0.0.1", udp_port)]:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.sendto(b"dgm-udp-probe", (host, port))
        print(f"sent: udp {host}:{port} (only harmful if the host receives it)")
    except OSError as exc:
        print(f"blocked: udp {host}:{port}: {exc}")
for name in ("example.com", "localhost.localdomain.invalid"):
    try:
        print(f"ESCAPED: dns {name} -> {socket.getaddrinfo(name, 80)[0][4]}")
    except OSError as exc:
        print(f"blocked: dns {name}: {exc}")
interfaces = [name for _, name in socket.if_nameindex()]
print(f"interfaces: {interfaces}")
if set(interfaces) - {"lo"}:
    print(f"ESCAPED: network interfaces {interfaces}")
