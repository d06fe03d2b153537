"""Plant symlinks to host files in the workspace, for copy_out to trip over."""

import os
import sys

secret = sys.argv[1]
os.makedirs("/work/out/sub", exist_ok=True)
os.symlink(secret, "/work/out/leak")
os.symlink("/etc", "/work/out/etc_link")
os.symlink(os.path.dirname(secret), "/work/out/sub/dir_link")
with open("/work/out/real.txt", "w") as fh:
    fh.write("a real result\n")
print("planted")
