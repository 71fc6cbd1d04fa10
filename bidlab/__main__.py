from bidlab.cli import main

raise SystemExit(main())
