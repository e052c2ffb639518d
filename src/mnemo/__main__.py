from mnemo.cli.main import main

main()
