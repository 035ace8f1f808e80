"""`python -m vtcode`."""

import sys

from vtcode.cli.main import main

sys.exit(main())
