from bidlab.cli import main

if __name__ == "__main__":   # the workers `bidlab report` spawns import this module too
    raise SystemExit(main())
