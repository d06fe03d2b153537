"""Memory bomb: allocate and touch 4 GB, 64 MB at a time."""

chunks = []
for i in range(64):
    chunks.append(bytearray(64 * 2**20))
    print(f"allocated {(i + 1) * 64} MB", flush=True)
print("ESCAPED: allocated 4 GB")
