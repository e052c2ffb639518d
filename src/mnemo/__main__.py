from mnemo.cli.entry import main

main()
