from dgm.cli import main

main()
